import { normalQuantile } from './normal-quantile.js';

export interface Interval {
  lower: number;
  upper: number;
}

/**
 * Wilson score interval for a pass rate x / n at the given confidence
 * (default 0.95), as statsmodels' proportion_confint(method='wilson'). Null
 * when n = 0. The bounds are clamped to [0, 1] so that x = 0 gives exactly 0
 * and x = n exactly 1 (the formula lands within rounding of them).
 */
export function wilsonInterval(successes: number, n: number, confidence = 0.95): Interval | null {
  if (!Number.isInteger(n) || n < 0 || !Number.isInteger(successes) || successes < 0 || successes > n) {
    throw new RangeError(`wilson: need integers 0 <= successes <= n, got ${successes} / ${n}`);
  }
  if (!(confidence > 0 && confidence < 1)) throw new RangeError(`wilson: confidence must be in (0, 1), got ${confidence}`);
  if (n === 0) return null;
  const z = normalQuantile(1 - (1 - confidence) / 2);
  const z2 = z * z;
  const q = successes / n;
  const denominator = 1 + z2 / n;
  const center = (q + z2 / (2 * n)) / denominator;
  const half = (z * Math.sqrt((q * (1 - q)) / n + z2 / (4 * n * n))) / denominator;
  return {
    lower: successes === 0 ? 0 : Math.max(0, center - half),
    upper: successes === n ? 1 : Math.min(1, center + half),
  };
}
