import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { spans } from '../../../test/fixtures/metrics/execution.factory.js';
import { aggregateDelegation, delegationMetrics } from './delegation.metrics.js';
import type { AgentSpan } from './execution.types.js';

describe('delegationMetrics on hand-built trajectories', () => {
  it('three sub-agents with two separate overlaps', () => {
    // main [0,100); s1 [10,50) s2 [30,70) s3 [60,90): >= 2 active on [30,50) and [60,70)
    expect(delegationMetrics(spans([0, 100], [['s1', 10, 50], ['s2', 30, 70], ['s3', 60, 90]]))).toEqual({
      created: 3,
      peak: 2,
      overlapTime: 30,
      overlapRatio: 0.3,
      span: 100,
      firstSpawnPosition: 0.1,
      firstOverlapPosition: 0.3,
      lastEndPosition: 0.9,
      neverOverlapping: false,
    });
  });

  it('touching intervals do not overlap (half-open: end == next start)', () => {
    const metrics = delegationMetrics(spans([0, 100], [['s1', 10, 40], ['s2', 40, 80]]));
    expect(metrics).toMatchObject({ created: 2, peak: 1, overlapTime: 0, overlapRatio: 0, firstOverlapPosition: null, neverOverlapping: true });
    expect(metrics.lastEndPosition).toBe(0.8);
  });

  it('nested delegation: sub-agents spawned by a sub-agent count like any other', () => {
    // s1 [10,80) spawns s1a [20,40) and s1b [30,60): 2 active on [20,60), 3 on [30,40)
    const metrics = delegationMetrics(spans([0, 100], [['s1', 10, 80], ['s1a', 20, 40, 's1'], ['s1b', 30, 60, 's1']]));
    expect(metrics).toMatchObject({ created: 3, peak: 3, overlapTime: 40, overlapRatio: 0.4, firstSpawnPosition: 0.1, firstOverlapPosition: 0.2, lastEndPosition: 0.8 });
  });

  it('the main agent never counts toward overlap, but sets t0 and t1', () => {
    const metrics = delegationMetrics(spans([0, 200], [['s1', 50, 150]]));
    expect(metrics).toMatchObject({ created: 1, peak: 1, overlapTime: 0, overlapRatio: 0, firstSpawnPosition: 0.25, lastEndPosition: 0.75, neverOverlapping: true });
  });

  it('a sub-agent starting before the main agent moves t0', () => {
    const metrics = delegationMetrics(spans([10, 110], [['s1', 0, 20]]));
    expect(metrics.span).toBe(110);
    expect(metrics.firstSpawnPosition).toBe(0);
  });

  it('no sub-agent: created 0, positions null, ratio 0', () => {
    expect(delegationMetrics(spans([0, 100], []))).toEqual({
      created: 0, peak: 0, overlapTime: 0, overlapRatio: 0, span: 100,
      firstSpawnPosition: null, firstOverlapPosition: null, lastEndPosition: null, neverOverlapping: false,
    });
  });

  it('zero span: positions are 0 and the ratio 0, never NaN', () => {
    expect(delegationMetrics(spans([50, 50], [['s1', 50, 50], ['s2', 50, 50]]))).toEqual({
      created: 2, peak: 0, overlapTime: 0, overlapRatio: 0, span: 0,
      firstSpawnPosition: 0, firstOverlapPosition: null, lastEndPosition: 0, neverOverlapping: true,
    });
    expect(delegationMetrics(spans([50, 50], []))).toMatchObject({ span: 0, overlapRatio: 0, firstSpawnPosition: null });
    expect(delegationMetrics([])).toMatchObject({ span: 0, created: 0, overlapRatio: 0 });
  });

  it('a zero-length sub-agent is created but never active', () => {
    const metrics = delegationMetrics(spans([0, 100], [['s1', 20, 20], ['s2', 20, 60]]));
    expect(metrics).toMatchObject({ created: 2, peak: 1, overlapTime: 0, firstSpawnPosition: 0.2 });
  });

  it('several rounds of one context count once and never overlap themselves', () => {
    const rounds = delegationMetrics(spans([0, 100], [['s1', 10, 30], ['s1', 50, 70], ['s2', 20, 60]]));
    expect(rounds).toMatchObject({ created: 2, peak: 2, overlapTime: 20, firstOverlapPosition: 0.2 });
    const selfOverlap = delegationMetrics(spans([0, 100], [['s1', 10, 40], ['s1', 20, 50]]));
    expect(selfOverlap).toMatchObject({ created: 1, peak: 1, overlapTime: 0 });
  });

  it('refuses a span that ends before it starts', () => {
    expect(() => delegationMetrics(spans([0, 100], [['s1', 50, 40]]))).toThrow(RangeError);
  });

  it('handles 200,000 sub-agents (sweep line, not pairwise)', () => {
    const many: Array<[string, number, number]> = Array.from({ length: 200_000 }, (_, i) => [`s${i}`, i, i + 3]);
    const metrics = delegationMetrics(spans([0, 300_000], many));
    expect(metrics).toMatchObject({ created: 200_000, peak: 3, overlapTime: 200_000 });
  });
});

/** Brute force on integer times: count distinct active ids in each unit cell [t, t + 1). */
function bruteForce(agents: AgentSpan[]): { peak: number; overlapTime: number } {
  const t0 = Math.min(...agents.map((a) => a.start));
  const t1 = Math.max(...agents.map((a) => a.end));
  let peak = 0;
  let overlapTime = 0;
  for (let t = t0; t < t1; t++) {
    const active = new Set(agents.filter((a) => a.parentId !== null && a.start <= t && t < a.end).map((a) => a.id));
    peak = Math.max(peak, active.size);
    if (active.size >= 2) overlapTime++;
  }
  return { peak, overlapTime };
}

const subAgent = fc
  .tuple(fc.integer({ min: 0, max: 8 }), fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 30 }), fc.boolean())
  .map(([id, start, length, nested]) => ({ id: `s${id}`, parentId: nested ? 's0' : 'main', start, end: start + length }));
const trajectory = fc
  .tuple(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 60 }), fc.array(subAgent, { maxLength: 12 }))
  .map(([start, length, subs]): AgentSpan[] => {
    // one parent per id, as the execution record requires
    const parents = new Map<string, string>();
    return [
      { id: 'main', parentId: null, start, end: start + length },
      ...subs.map((s) => ({ ...s, parentId: parents.get(s.id) ?? (parents.set(s.id, s.parentId), s.parentId) })),
    ];
  });

describe('delegationMetrics properties', () => {
  it('agrees with a brute-force count; ratio in [0, 1]; peak <= created; 0 with <= 1 sub-agent', () => {
    fc.assert(
      fc.property(trajectory, (agents) => {
        const metrics = delegationMetrics(agents);
        const expected = bruteForce(agents);
        expect(metrics.peak).toBe(expected.peak);
        expect(metrics.overlapTime).toBe(expected.overlapTime);
        expect(metrics.overlapRatio).toBeGreaterThanOrEqual(0);
        expect(metrics.overlapRatio).toBeLessThanOrEqual(1);
        expect(metrics.peak).toBeLessThanOrEqual(metrics.created);
        if (metrics.created <= 1) expect(metrics.overlapRatio).toBe(0);
        for (const position of [metrics.firstSpawnPosition, metrics.firstOverlapPosition, metrics.lastEndPosition]) {
          if (position !== null) {
            expect(position).toBeGreaterThanOrEqual(0);
            expect(position).toBeLessThanOrEqual(1);
          }
        }
        expect(metrics.neverOverlapping).toBe(metrics.created >= 1 && metrics.overlapTime === 0);
      }),
      { numRuns: 500 },
    );
  });
});

describe('aggregateDelegation', () => {
  it('means, medians over executions that have the position, overlap median with zeros', () => {
    const aggregate = aggregateDelegation([
      delegationMetrics(spans([0, 100], [['s1', 10, 50], ['s2', 30, 70], ['s3', 60, 90]])), // ratio .3, first overlap .3
      delegationMetrics(spans([0, 100], [['s1', 10, 40], ['s2', 40, 80]])), // ratio 0, no overlap
      delegationMetrics(spans([0, 100], [])), // no sub-agent
      delegationMetrics(spans([0, 100], [['s1', 10, 80], ['s1a', 20, 40, 's1'], ['s1b', 30, 60, 's1']])), // ratio .4, first overlap .2
    ]);
    expect(aggregate).toEqual({
      n: 4,
      meanCreated: 2,
      meanPeak: 1.5,
      medianOverlapRatio: 0.15,
      medianFirstSpawnPosition: 0.1,
      medianFirstOverlapPosition: 0.25,
      medianLastEndPosition: 0.8,
      neverOverlapping: 1,
      neverOverlappingRate: 0.25,
    });
  });

  it('gives null for an empty group', () => {
    expect(aggregateDelegation([])).toMatchObject({ n: 0, meanCreated: null, medianOverlapRatio: null, neverOverlappingRate: null });
  });
});
