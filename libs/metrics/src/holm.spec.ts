import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import holmFixture from '../../../test/fixtures/metrics/holm.json' with { type: 'json' };
import { holm, holmFamily } from './holm.js';

const close = (actual: number, expected: number): boolean =>
  Math.abs(actual - expected) <= 1e-9 * Math.max(Math.abs(actual), Math.abs(expected));

describe('holm', () => {
  it.each(holmFixture.cases.map((c, i) => ({ ...c, i })))('matches statsmodels multipletests (case $i)', ({ p, adjusted }) => {
    const result = holm(p);
    result.forEach((value, i) => expect(close(value!, adjusted[i]!)).toBe(true));
  });

  it('applies the formula by hand: m = 4', () => {
    // sorted 0.005, 0.01, 0.03, 0.04 -> 0.02, 0.03, 0.06, max(0.06, 0.04) = 0.06
    expect(holm([0.01, 0.04, 0.03, 0.005]).map((p) => Number(p!.toFixed(12)))).toEqual([0.03, 0.06, 0.06, 0.02]);
  });

  it('counts a null p as p = 1 in the family and reports null for it', () => {
    expect(holm([0.01, null, 0.02])).toEqual([0.03, null, 0.04]);
  });

  it('is monotone in sorted order, >= raw p and <= 1', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 60 }), (p) => {
        const adjusted = holm(p) as number[];
        const order = p.map((_, i) => i).sort((a, b) => p[a]! - p[b]! || a - b);
        for (let k = 0; k < order.length; k++) {
          const i = order[k]!;
          expect(adjusted[i]).toBeGreaterThanOrEqual(p[i]!);
          expect(adjusted[i]).toBeLessThanOrEqual(1);
          if (k > 0) expect(adjusted[i]).toBeGreaterThanOrEqual(adjusted[order[k - 1]!]!);
        }
      }),
    );
  });

  it('keeps the members of an explicit family', () => {
    expect(holmFamily([{ key: 'a', p: 0.01 }, { key: 'b', p: 0.5 }])).toEqual([
      { key: 'a', p: 0.01, pAdjusted: 0.02 },
      { key: 'b', p: 0.5, pAdjusted: 0.5 },
    ]);
  });

  it('rejects values outside [0, 1]', () => {
    expect(() => holm([1.2])).toThrow(RangeError);
    expect(() => holm([Number.NaN])).toThrow(RangeError);
  });
});
