import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import spearmanFixture from '../../../test/fixtures/metrics/spearman.json' with { type: 'json' };
import { mulberry32, shuffleInPlace } from './prng.js';
import { averageRanks, spearmanPermutationTest, spearmanRho } from './spearman.js';

const close = (actual: number, expected: number): boolean =>
  Math.abs(actual - expected) <= 1e-9 * Math.max(Math.abs(actual), Math.abs(expected));

/** The test written the slow, obvious way with the generic generator: the fast loop must agree exactly. */
function referencePermutationP(x: number[], y: number[], permutations: number, seed: number): number {
  const observed = Math.abs(spearmanRho(x, y)!);
  const shuffled = [...y];
  const prng = mulberry32(seed);
  let count = 0;
  for (let p = 0; p < permutations; p++) {
    shuffleInPlace(shuffled, prng);
    if (Math.abs(spearmanRho(x, shuffled)!) >= observed - 1e-12) count++;
  }
  return (1 + count) / (permutations + 1);
}

describe('averageRanks', () => {
  it('gives tied values the mean of the ranks they span', () => {
    expect([...averageRanks([10, 20, 20, 5, 20])]).toEqual([2, 4, 4, 1, 4]);
  });
});

describe('spearmanRho', () => {
  it.each(spearmanFixture.cases.map((c, i) => ({ ...c, i })))('matches scipy.stats.spearmanr with ties (case $i)', ({ x, y, rho }) => {
    expect(close(spearmanRho(x, y)!, rho)).toBe(true);
  });

  it('is null for a constant variable or fewer than two observations', () => {
    expect(spearmanRho([1, 1, 1], [1, 2, 3])).toBeNull();
    expect(spearmanRho([1], [2])).toBeNull();
  });
});

describe('spearmanPermutationTest', () => {
  const x = [1, 1, 2, 2, 3, 3, 1, 2, 3, 3, 2, 1];
  const y = [5, 7, 9, 20, 40, 35, 6, 12, 150, 30, 9, 5];

  it('agrees exactly with the slow reference implementation', () => {
    const fast = spearmanPermutationTest(x, y, { permutations: 2000, seed: 12345 });
    expect(fast.p).toBe(referencePermutationP(x, y, 2000, 12345));
  });

  it('pins the value for a fixed input, seed and N, so a change of stream cannot go unnoticed', () => {
    const weak = [5, 7, 9, 20, 4, 35, 6, 12, 15, 3, 9, 5];
    const result = spearmanPermutationTest(x, weak, { permutations: 10_000, seed: 1 });
    expect(result.p).toBe(5190 / 10_001);
    expect(result.p).toBe(referencePermutationP(x, weak, 10_000, 1));
  });

  it('counts ties with the observed statistic (tolerance 1e-12)', () => {
    // n = 3, perfect order: of the 6 permutations, 2 reach |rho| = 1.
    const result = spearmanPermutationTest([1, 2, 3], [1, 2, 3], { permutations: 30_000, seed: 9 });
    expect(result.p!).toBeGreaterThan(0.32);
    expect(result.p!).toBeLessThan(0.35);
  });

  it('gives null rho and p for a constant variable, and p = 1 with N = 0', () => {
    expect(spearmanPermutationTest([2, 2, 2], [1, 2, 3])).toEqual({ n: 3, rho: null, p: null, permutations: 10_000 });
    expect(spearmanPermutationTest([1, 2, 3], [3, 1, 2], { permutations: 0 }).p).toBe(1);
  });

  it('gives the same p for the same seed and N, and p in (0, 1]', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 0, max: 150 })), { minLength: 3, maxLength: 40 }),
        fc.nat(),
        (points, seed) => {
          const xs = points.map((p) => p[0]);
          const ys = points.map((p) => p[1]);
          const first = spearmanPermutationTest(xs, ys, { permutations: 200, seed });
          const second = spearmanPermutationTest(xs, ys, { permutations: 200, seed });
          expect(second).toEqual(first);
          if (first.p !== null) {
            expect(first.p).toBeGreaterThan(0);
            expect(first.p).toBeLessThanOrEqual(1);
          }
        },
      ),
      { numRuns: 50 },
    );
  });

  it('accepts string seeds through seedFrom', () => {
    const a = spearmanPermutationTest(x, y, { permutations: 500, seed: 'campaign-7' });
    const b = spearmanPermutationTest(x, y, { permutations: 500, seed: 'campaign-7' });
    expect(a.p).toBe(b.p);
  });
});
