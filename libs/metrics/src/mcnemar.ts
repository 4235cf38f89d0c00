/**
 * Exact binomial tails at probability 1/2 and the exact McNemar test, in log
 * space so b + c in the thousands neither overflows (C(n, i) > 1e308 from
 * n ~ 1030) nor underflows (2^-n < 5e-324 from n ~ 1075) on the way.
 */

const LN2 = Math.LN2;

/** ln C(n, k) as a sum of ln((n - k + j) / j), j = 1..k (k <= n / 2 keeps it short). */
function logChoose(n: number, k: number): number {
  const kk = Math.min(k, n - k);
  let total = 0;
  for (let j = 1; j <= kk; j++) total += Math.log((n - kk + j) / j);
  return total;
}

/**
 * ln P(X <= k) for X ~ Binomial(n, 1/2), exact up to floating rounding
 * (relative error ~1e-13 for n in the thousands).
 */
export function logBinomialCdfHalf(k: number, n: number): number {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`binomial: n must be a non-negative integer, got ${n}`);
  if (!Number.isInteger(k)) throw new RangeError(`binomial: k must be an integer, got ${k}`);
  if (k < 0) return -Infinity;
  if (k >= n) return 0;
  if (2 * k >= n) {
    // Upper half: P(X <= k) = 1 - P(X <= n - k - 1) by symmetry; the complement is <= 1/2.
    const complement = Math.exp(logBinomialCdfHalf(n - k - 1, n));
    return Math.log1p(-complement);
  }
  // Sum the terms from the largest (i = k) down; t(i-1) / t(i) = i / (n - i + 1) < 1.
  let ratioSum = 1;
  let term = 1;
  for (let i = k; i > 0; i--) {
    term *= i / (n - i + 1);
    ratioSum += term;
    if (term < 1e-18 * ratioSum) break;
  }
  return logChoose(n, k) - n * LN2 + Math.log(ratioSum);
}

/** P(X <= k) for X ~ Binomial(n, 1/2); 0 when below the smallest double. */
export function binomialCdfHalf(k: number, n: number): number {
  return Math.exp(logBinomialCdfHalf(k, n));
}

export interface McNemarResult {
  b: number;
  c: number;
  /** Two-sided exact p; underflows to 0 only when the true value is below ~5e-324. */
  p: number;
  /** log10 of the exact p, finite even where p itself underflows. */
  log10P: number;
}

/**
 * Exact two-sided McNemar: p = min(1, 2 sum_{i=0}^{min(b,c)} C(b+c, i) / 2^(b+c));
 * p = 1 when b + c = 0. Symmetric in b and c by construction.
 */
export function mcnemarExact(b: number, c: number): McNemarResult {
  if (!Number.isInteger(b) || !Number.isInteger(c) || b < 0 || c < 0) {
    throw new RangeError(`mcnemar: b and c must be non-negative integers, got b=${b}, c=${c}`);
  }
  const n = b + c;
  // |b - c| <= 1: the two tails cover every outcome, so p is exactly 1 (log space would give 1 - 1 ulp).
  if (Math.abs(b - c) <= 1) return { b, c, p: 1, log10P: 0 };
  const logP = Math.min(0, LN2 + logBinomialCdfHalf(Math.min(b, c), n));
  return { b, c, p: Math.exp(logP), log10P: logP / Math.LN10 };
}
