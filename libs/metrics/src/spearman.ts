import { seedFrom } from './prng.js';

/** Ranks 1..n with ties given the average of the ranks they span. */
export function averageRanks(values: ArrayLike<number>): Float64Array {
  const n = values.length;
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  order.sort((a, b) => values[a]! - values[b]! || a - b);
  const ranks = new Float64Array(n);
  let i = 0;
  while (i < n) {
    let j = i;
    while (j + 1 < n && values[order[j + 1]!] === values[order[i]!]) j++;
    const rank = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) ranks[order[k]!] = rank;
    i = j + 1;
  }
  return ranks;
}

function centered(values: Float64Array): { deviations: Float64Array; sumSquares: number } {
  const n = values.length;
  let total = 0;
  for (let i = 0; i < n; i++) total += values[i]!;
  const m = total / n;
  const deviations = new Float64Array(n);
  let sumSquares = 0;
  for (let i = 0; i < n; i++) {
    const d = values[i]! - m;
    deviations[i] = d;
    sumSquares += d * d;
  }
  return { deviations, sumSquares };
}

/**
 * Spearman's rho: Pearson correlation of the average ranks. Null when fewer
 * than two observations or either variable is constant (no ranking to
 * correlate).
 */
export function spearmanRho(x: ArrayLike<number>, y: ArrayLike<number>): number | null {
  if (x.length !== y.length) throw new RangeError(`spearman: x and y differ in length (${x.length} vs ${y.length})`);
  if (x.length < 2) return null;
  const cx = centered(averageRanks(x));
  const cy = centered(averageRanks(y));
  if (cx.sumSquares === 0 || cy.sumSquares === 0) return null;
  let dot = 0;
  for (let i = 0; i < x.length; i++) dot += cx.deviations[i]! * cy.deviations[i]!;
  return dot / Math.sqrt(cx.sumSquares * cy.sumSquares);
}

export interface PermutationTestOptions {
  /** Number of permutations N (default 10,000). */
  permutations?: number;
  /** uint32 seed of the mulberry32 stream, or any string/number parts hashed with seedFrom. */
  seed?: number | string;
}

export interface SpearmanTestResult {
  n: number;
  rho: number | null;
  /** Two-sided permutation p = (1 + #{|rho_perm| >= |rho_obs| - 1e-12}) / (N + 1). */
  p: number | null;
  permutations: number;
}

const TIE_TOLERANCE = 1e-12;
const TWO_POW_32 = 4294967296;

/**
 * Spearman rho with a seeded two-sided permutation test. y's centred ranks
 * are shuffled (Fisher-Yates, mulberry32, exactly as in prng.ts) N times
 * against x's fixed centred ranks; the denominator does not change under
 * permutation, so each permutation costs one shuffle and one dot product and
 * allocates nothing. Identical seed and N give an identical p on every
 * machine: the arithmetic is plain IEEE double in a fixed order.
 */
export function spearmanPermutationTest(
  x: ArrayLike<number>,
  y: ArrayLike<number>,
  options: PermutationTestOptions = {},
): SpearmanTestResult {
  const permutations = options.permutations ?? 10_000;
  if (!Number.isInteger(permutations) || permutations < 0) {
    throw new RangeError(`spearman: permutations must be a non-negative integer, got ${permutations}`);
  }
  const n = x.length;
  const rho = spearmanRho(x, y);
  if (rho === null) return { n, rho: null, p: null, permutations };
  const cx = centered(averageRanks(x));
  const cy = centered(averageRanks(y));
  const dx = cx.deviations;
  const dy = cy.deviations;
  const denominator = Math.sqrt(cx.sumSquares * cy.sumSquares);
  const threshold = Math.abs(rho) - TIE_TOLERANCE;

  // mulberry32 inlined: the hot loop runs N x n times.
  const seed = options.seed ?? 1;
  let state = (typeof seed === 'number' ? seed : seedFrom(seed)) >>> 0;
  let atLeastAsExtreme = 0;
  for (let p = 0; p < permutations; p++) {
    for (let i = n - 1; i > 0; i--) {
      state = (state + 0x6d2b79f5) >>> 0;
      let t = state;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      const u = (t ^ (t >>> 14)) >>> 0;
      const j = Math.floor((u * (i + 1)) / TWO_POW_32);
      const tmp = dy[i]!;
      dy[i] = dy[j]!;
      dy[j] = tmp;
    }
    let dot = 0;
    for (let i = 0; i < n; i++) dot += dx[i]! * dy[i]!;
    if (Math.abs(dot / denominator) >= threshold) atLeastAsExtreme++;
  }
  return { n, rho, p: (1 + atLeastAsExtreme) / (permutations + 1), permutations };
}
