/**
 * Seeded randomness: every decision of the demo agent is a pure function of
 * the execution seed and a key naming the decision (`roll(seed, 'mistake',
 * stepId, attempt)`), so it does not depend on which process makes it or in
 * which order: the same seed gives the same decisions in every process.
 */

/** 32-bit FNV-1a over the UTF-16 code units of a string. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** mulberry32's first output for a 32-bit state, in [0, 1). */
function mulberry(state: number): number {
  let t = (state + 0x6d2b79f5) >>> 0;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

/** A uniform number in [0, 1) determined by the seed and the key. */
export function roll(seed: number, ...key: Array<string | number>): number {
  return mulberry(hash32(`${seed}|${key.join('|')}`));
}

/** A uniform integer in [0, n) determined by the seed and the key. */
export function pick(n: number, seed: number, ...key: Array<string | number>): number {
  return Math.min(n - 1, Math.floor(roll(seed, ...key) * n));
}
