import { describe, expect, it } from 'vitest';
import { pairedBootstrapInterval } from './bootstrap.js';

describe('pairedBootstrapInterval', () => {
  const a = [0.9, 0.8, 1, 0.4, 0.7, 0.65, 0.3, 1, 0.95, 0.5];
  const b = [0.7, 0.8, 0.9, 0.5, 0.4, 0.6, 0.3, 0.8, 0.9, 0.2];

  it('is deterministic for a seed and brackets the observed mean', () => {
    const first = pairedBootstrapInterval(a, b, { seed: 7, resamples: 5000 })!;
    expect(pairedBootstrapInterval(a, b, { seed: 7, resamples: 5000 })).toEqual(first);
    expect(first.mean).toBeCloseTo(0.11, 12);
    expect(first.lower).toBeLessThan(first.mean);
    expect(first.upper).toBeGreaterThan(first.mean);
    expect(pairedBootstrapInterval(a, b, { seed: 8, resamples: 5000 })).not.toEqual(first);
  });

  it('collapses to the difference when every pair differs by the same amount', () => {
    const interval = pairedBootstrapInterval([3, 4, 5], [1, 2, 3], { seed: 1, resamples: 100 })!;
    expect(interval).toEqual({ n: 3, mean: 2, lower: 2, upper: 2, resamples: 100 });
  });

  it('is null without pairs and refuses unpaired samples', () => {
    expect(pairedBootstrapInterval([], [])).toBeNull();
    expect(() => pairedBootstrapInterval([1], [1, 2])).toThrow(RangeError);
  });
});
