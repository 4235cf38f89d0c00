import { describe, expect, it } from 'vitest';
import prngFixture from '../../../test/fixtures/metrics/prng.json' with { type: 'json' };
import { mulberry32, seedFrom, shuffleInPlace } from './prng.js';

// The Python generator reimplements the specification; matching it pins the streams across machines.
describe('seeded generator (against an independent Python implementation)', () => {
  it.each(prngFixture.cases.mulberry32)('mulberry32 stream of seed $seed', ({ seed, first }) => {
    const prng = mulberry32(seed);
    expect(first.map(() => prng.nextUint32())).toEqual(first);
  });

  it.each(prngFixture.cases.seedFrom)('seedFrom($parts)', ({ parts, hash }) => {
    expect(seedFrom(...parts)).toBe(hash);
  });

  it.each(prngFixture.cases.shuffle)('Fisher-Yates of $n items with seed $seed', ({ n, seed, order }) => {
    const items = Array.from({ length: n }, (_, i) => i);
    shuffleInPlace(items, mulberry32(seed));
    expect(items).toEqual(order);
  });

  it('draws integers in range and floats in [0, 1)', () => {
    const prng = mulberry32(7);
    for (let i = 0; i < 10_000; i++) {
      const k = prng.nextInt(3);
      expect(k === 0 || k === 1 || k === 2).toBe(true);
      const x = prng.nextFloat();
      expect(x >= 0 && x < 1).toBe(true);
    }
  });
});
