import { describe, expect, it } from 'vitest';
import quantileFixture from '../../../test/fixtures/metrics/normal-quantile.json' with { type: 'json' };
import wilsonFixture from '../../../test/fixtures/metrics/wilson.json' with { type: 'json' };
import { normalQuantile } from './normal-quantile.js';
import { wilsonInterval } from './wilson.js';

// 1e-9 relative; an exact 0 or 1 bound is compared with an absolute 1e-15 (statsmodels lands within rounding of it).
const close = (actual: number, expected: number): boolean =>
  Math.abs(actual - expected) <= 1e-9 * Math.max(Math.abs(actual), Math.abs(expected)) || Math.abs(actual - expected) <= 1e-15;

describe('normalQuantile', () => {
  it.each(quantileFixture.cases)('matches scipy norm.ppf($p)', ({ p, z }) => {
    expect(close(normalQuantile(p), z)).toBe(true);
  });
});

describe('wilsonInterval', () => {
  it.each(wilsonFixture.cases)('matches statsmodels for $successes / $n at $confidence', ({ successes, n, confidence, lower, upper }) => {
    const interval = wilsonInterval(successes, n, confidence)!;
    expect(close(interval.lower, lower)).toBe(true);
    expect(close(interval.upper, upper)).toBe(true);
  });

  it('is null for an empty group and exact at the edges', () => {
    expect(wilsonInterval(0, 0)).toBeNull();
    expect(wilsonInterval(0, 354)!.lower).toBe(0);
    expect(wilsonInterval(20, 20)!.upper).toBe(1);
  });
});
