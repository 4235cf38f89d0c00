/**
 * Seeded randomness. Everything here is specified bit for bit (32-bit integer
 * arithmetic via Math.imul and >>> 0), so the same seed yields the same stream
 * on every machine and JavaScript engine.
 */

/** A uniform generator of 32-bit unsigned integers. */
export interface Prng {
  /** Next uniform integer in [0, 2^32). */
  nextUint32(): number;
  /** Next uniform integer in [0, n) for 1 <= n <= 2^32 (floor(u32 * n / 2^32)). */
  nextInt(n: number): number;
  /** Next double in [0, 1) with 32 bits of randomness. */
  nextFloat(): number;
}

const TWO_POW_32 = 4294967296;

/** mulberry32 (Tommy Ettinger, public domain): one 32-bit word of state. */
export function mulberry32(seed: number): Prng {
  let state = seed >>> 0;
  const nextUint32 = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
  return {
    nextUint32,
    // The multiply-shift bias is at most n / 2^32: invisible at the sizes used here.
    nextInt: (n: number) => Math.floor((nextUint32() * n) / TWO_POW_32),
    nextFloat: () => nextUint32() / TWO_POW_32,
  };
}

/**
 * 32-bit FNV-1a over the UTF-16 code units of the parts joined by U+001F.
 * Used to derive independent, named streams: seedFrom(campaignSeed, benchmark, group).
 */
export function seedFrom(...parts: ReadonlyArray<string | number>): number {
  const text = parts.map(String).join('\u001f');
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** In-place Fisher-Yates (Durstenfeld) shuffle, from the last index down. */
export function shuffleInPlace<T>(items: { length: number; [index: number]: T }, prng: Prng): void {
  for (let i = items.length - 1; i > 0; i--) {
    const j = prng.nextInt(i + 1);
    const tmp = items[i] as T;
    items[i] = items[j] as T;
    items[j] = tmp;
  }
}
