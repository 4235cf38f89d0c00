import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { paretoFront } from './pareto.js';

describe('paretoFront', () => {
  it('keeps the cheapest for each level of pass, by hand', () => {
    const points = [
      { cost: 10, pass: 0.5 }, // front: cheapest
      { cost: 20, pass: 0.7 }, // front
      { cost: 25, pass: 0.6 }, // dominated by (20, 0.7)
      { cost: 30, pass: 0.9 }, // front
      { cost: 30, pass: 0.8 }, // dominated by (30, 0.9)
      { cost: null, pass: 1 }, // no cost: never
      { cost: 40, pass: 0.9 }, // dominated by (30, 0.9)
    ];
    expect(paretoFront(points)).toEqual([true, true, false, true, false, false, false]);
  });

  it('identical points are all on the front', () => {
    expect(paretoFront([{ cost: 1, pass: 0.5 }, { cost: 1, pass: 0.5 }])).toEqual([true, true]);
  });

  it('a point is on the front exactly when nothing dominates it (brute force)', () => {
    const point = fc.record({ cost: fc.integer({ min: 0, max: 6 }), pass: fc.integer({ min: 0, max: 6 }).map((v) => v / 6) });
    fc.assert(
      fc.property(fc.array(point, { maxLength: 12 }), (points) => {
        const dominated = points.map((p) => points.some((q) => q.cost <= p.cost && q.pass >= p.pass && (q.cost < p.cost || q.pass > p.pass)));
        expect(paretoFront(points)).toEqual(dominated.map((d) => !d));
      }),
    );
  });
});
