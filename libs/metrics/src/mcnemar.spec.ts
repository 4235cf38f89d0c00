import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import binomialFixture from '../../../test/fixtures/metrics/binomial.json' with { type: 'json' };
import mcnemarFixture from '../../../test/fixtures/metrics/mcnemar.json' with { type: 'json' };
import { binomialCdfHalf, logBinomialCdfHalf, mcnemarExact } from './mcnemar.js';

const close = (actual: number, expected: number, relative = 1e-9): boolean =>
  Math.abs(actual - expected) <= relative * Math.max(Math.abs(actual), Math.abs(expected));

// Below ~1e-307, 10 ** x loses relative precision and doubles turn subnormal.
const SMALLEST_COMPARABLE_LOG10 = -307;

describe('binomial tails at 1/2 (scipy.stats.binom.cdf, exact integers)', () => {
  it.each(binomialFixture.cases)('P(X <= $k) for n = $n', ({ k, n, cdf, log10Cdf }) => {
    const log10 = logBinomialCdfHalf(k, n) / Math.LN10;
    expect(close(log10, log10Cdf, 1e-12) || Math.abs(log10 - log10Cdf) < 1e-12).toBe(true);
    if (cdf > 0) expect(close(binomialCdfHalf(k, n), cdf)).toBe(true);
  });

  it('is 0 in log space at and beyond n, and -Infinity below 0', () => {
    expect(logBinomialCdfHalf(10, 10)).toBe(0);
    expect(logBinomialCdfHalf(-1, 10)).toBe(-Infinity);
  });
});

describe('mcnemarExact', () => {
  it.each(mcnemarFixture.cases)('b = $b, c = $c matches scipy binomtest and exact fractions', ({ b, c, p, log10P }) => {
    const result = mcnemarExact(b, c);
    expect(Number.isFinite(result.log10P)).toBe(true);
    expect(Math.abs(result.log10P - log10P) <= 1e-9 * Math.max(1, Math.abs(log10P))).toBe(true);
    if (p > 0) expect(close(result.p, p)).toBe(true);
    if (log10P > SMALLEST_COMPARABLE_LOG10) expect(close(result.p, 10 ** log10P)).toBe(true);
    else expect(result.p).toBe(0);
  });

  it('gives p = 1 when there is no discordant pair', () => {
    expect(mcnemarExact(0, 0)).toEqual({ b: 0, c: 0, p: 1, log10P: 0 });
  });

  it('gives exactly 1 (not 1 - 1 ulp) when b and c differ by at most one', () => {
    for (const [b, c] of [[2, 1], [1, 2], [500, 501], [7, 7]] as const) expect(mcnemarExact(b, c)).toEqual({ b, c, p: 1, log10P: 0 });
  });

  it('stays finite where the naive binomial sum overflows (b + c in the thousands)', () => {
    // scipy's binomtest underflows to 0 here; the exact value is ~2.7e-300.
    const result = mcnemarExact(10, 1065);
    expect(result.p).toBeGreaterThan(0);
    expect(close(result.p, 10 ** -299.5660379257914)).toBe(true);
  });

  it('is symmetric in b and c and within [0, 1]', () => {
    fc.assert(
      fc.property(fc.nat(4000), fc.nat(4000), (b, c) => {
        const x = mcnemarExact(b, c);
        const y = mcnemarExact(c, b);
        expect(x.p).toBe(y.p);
        expect(x.log10P).toBe(y.log10P);
        expect(x.p).toBeGreaterThanOrEqual(0);
        expect(x.p).toBeLessThanOrEqual(1);
        expect(Number.isNaN(x.log10P)).toBe(false);
      }),
    );
  });

  it('rejects counts that are not non-negative integers', () => {
    expect(() => mcnemarExact(-1, 2)).toThrow(RangeError);
    expect(() => mcnemarExact(1.5, 2)).toThrow(RangeError);
  });
});
