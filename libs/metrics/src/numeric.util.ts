/** Mean of the values; null for an empty list (never NaN). */
export function mean(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  let total = 0;
  for (const v of values) total += v;
  return total / values.length;
}

/** Median (average of the two middle values for an even count); null for an empty list. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = Float64Array.from(values).sort();
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * Quantile by linear interpolation between order statistics (Hyndman-Fan
 * type 7, numpy's default) on an already sorted array.
 */
export function quantileSorted(sorted: ArrayLike<number>, q: number): number | null {
  const n = sorted.length;
  if (n === 0) return null;
  if (q <= 0) return sorted[0]!;
  if (q >= 1) return sorted[n - 1]!;
  const h = (n - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, n - 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

/** a / b, or null when b is 0 (an empty group). */
export function ratioOrNull(a: number, b: number): number | null {
  return b === 0 ? null : a / b;
}

/**
 * Round half up (towards +infinity) of a non-negative product computed in
 * binary floating point. The 1e-9 tolerance makes decimal inputs behave as
 * written: 0.3 x 5 is 1.5 on paper and rounds to 2 even if the double lands a
 * hair below.
 */
export function roundHalfUp(x: number): number {
  return Math.floor(x + 0.5 + 1e-9);
}
