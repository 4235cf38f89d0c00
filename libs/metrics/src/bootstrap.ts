import { quantileSorted } from './numeric.util.js';
import { mulberry32, seedFrom } from './prng.js';

export interface BootstrapOptions {
  /** Number of resamples B (default 10,000). */
  resamples?: number;
  /** Confidence level (default 0.95). */
  confidence?: number;
  /** uint32 seed, or string/number parts hashed with seedFrom (default 1). */
  seed?: number | string;
}

export interface BootstrapInterval {
  n: number;
  /** Observed mean of (a - b). */
  mean: number;
  lower: number;
  upper: number;
  resamples: number;
}

/**
 * Paired bootstrap percentile interval for mean(a - b): resample the pairs
 * with replacement B times (indices from a seeded mulberry32 stream), take
 * the mean difference of each resample, and read the (1 - c) / 2 and
 * (1 + c) / 2 quantiles of the B means (linear interpolation, type 7).
 * Null when there are no pairs.
 */
export function pairedBootstrapInterval(
  a: readonly number[],
  b: readonly number[],
  options: BootstrapOptions = {},
): BootstrapInterval | null {
  if (a.length !== b.length) throw new RangeError(`bootstrap: paired samples differ in length (${a.length} vs ${b.length})`);
  const n = a.length;
  if (n === 0) return null;
  const resamples = options.resamples ?? 10_000;
  const confidence = options.confidence ?? 0.95;
  if (!Number.isInteger(resamples) || resamples < 1) throw new RangeError(`bootstrap: resamples must be a positive integer, got ${resamples}`);
  if (!(confidence > 0 && confidence < 1)) throw new RangeError(`bootstrap: confidence must be in (0, 1), got ${confidence}`);
  const seed = options.seed ?? 1;
  const prng = mulberry32(typeof seed === 'number' ? seed : seedFrom(seed));
  const differences = new Float64Array(n);
  let observed = 0;
  for (let i = 0; i < n; i++) {
    differences[i] = a[i]! - b[i]!;
    observed += differences[i]!;
  }
  const means = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    let total = 0;
    for (let i = 0; i < n; i++) total += differences[prng.nextInt(n)]!;
    means[r] = total / n;
  }
  means.sort();
  const alpha = (1 - confidence) / 2;
  return {
    n,
    mean: observed / n,
    lower: quantileSorted(means, alpha)!,
    upper: quantileSorted(means, 1 - alpha)!,
    resamples,
  };
}
