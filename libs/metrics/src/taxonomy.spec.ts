import { describe, expect, it } from 'vitest';
import { taxonomyDistribution } from './taxonomy.js';

describe('taxonomyDistribution', () => {
  const codebook = [
    { pattern: 'no-failure', subcategory: 'none', category: 'none' },
    { pattern: 'lost-context', subcategory: 'memory', category: 'coordination' },
    { pattern: 'duplicate-work', subcategory: 'memory', category: 'coordination' },
    { pattern: 'wrong-test', subcategory: 'verification', category: 'execution' },
  ];
  const result = taxonomyDistribution(codebook, [
    { trajectoryId: 't1', agent: 'codex', patterns: ['lost-context', 'duplicate-work'] },
    { trajectoryId: 't2', agent: 'codex', patterns: ['no-failure'] },
    { trajectoryId: 't3', agent: 'claude', patterns: ['wrong-test', 'lost-context', 'lost-context'] },
    { trajectoryId: 't4', agent: 'claude', patterns: [] },
  ]);
  const row = (level: string, key: string) => result.rows.find((r) => r.level === level && r.key === key)!;

  it('counts instances (a pattern once per trajectory) and shares', () => {
    expect(result.totalInstances).toBe(5);
    expect(result.trajectoriesWithPattern).toBe(3);
    expect(row('pattern', 'lost-context')).toMatchObject({ instances: 2, share: 0.4, trajectories: 2 });
    expect(row('category', 'coordination')).toMatchObject({ instances: 3, share: 0.6, trajectories: 2 });
    expect(row('subcategory', 'coordination / memory')).toMatchObject({ instances: 3, trajectories: 2 });
  });

  it('gives each agent its share of its own instances and trajectories', () => {
    const byAgent = row('category', 'coordination').byAgent;
    expect(byAgent).toEqual([
      { agent: 'claude', instances: 1, share: 0.5, trajectories: 1, trajectoryShare: 0.5 },
      { agent: 'codex', instances: 2, share: 2 / 3, trajectories: 1, trajectoryShare: 0.5 },
    ]);
  });

  it('gives null shares, not NaN, when there is nothing to share', () => {
    const empty = taxonomyDistribution(codebook, []);
    expect(empty.rows.every((r) => r.share === null)).toBe(true);
  });
});
