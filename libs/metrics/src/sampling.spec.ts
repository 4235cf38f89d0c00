import { describe, expect, it } from 'vitest';
import { stratifiedSample, type SamplableTask } from './sampling.js';

function benchmarkTasks(sizes: Record<string, number>, benchmark = 'b1'): SamplableTask[] {
  return Object.entries(sizes).flatMap(([group, size]) =>
    Array.from({ length: size }, (_, i) => ({ id: `${group}-${String(i).padStart(3, '0')}`, benchmark, group })),
  );
}

describe('stratifiedSample', () => {
  const tasks = benchmarkTasks({ easy: 194, medium: 261, hard: 45 });

  it('takes round_half_up(f x N_g) per group: 20% of 194/261/45 is 39/52/9', () => {
    const sample = stratifiedSample(tasks, { fraction: 0.2, seed: 42 });
    expect(sample.strata).toEqual([
      { benchmark: 'b1', group: 'easy', size: 194, sampled: 39 },
      { benchmark: 'b1', group: 'hard', size: 45, sampled: 9 },
      { benchmark: 'b1', group: 'medium', size: 261, sampled: 52 },
    ]);
    expect(sample.tasks).toHaveLength(100);
    expect(sample.tasks.filter((t) => t.group === 'medium')).toHaveLength(52);
  });

  it('rounds halves up', () => {
    const sample = stratifiedSample(benchmarkTasks({ g: 5 }), { fraction: 0.3, seed: 1 });
    expect(sample.strata[0]!.sampled).toBe(2); // 1.5 -> 2
    expect(stratifiedSample(benchmarkTasks({ g: 5 }), { fraction: 0.1, seed: 1 }).strata[0]!.sampled).toBe(1); // 0.5 -> 1
  });

  it('gives the same tasks for the same seed, whatever the input order', () => {
    const first = stratifiedSample(tasks, { fraction: 0.2, seed: 42 }).tasks.map((t) => t.id);
    const reversed = stratifiedSample([...tasks].reverse(), { fraction: 0.2, seed: 42 }).tasks.map((t) => t.id);
    expect(reversed).toEqual(first);
  });

  it('gives a different sample for a different seed', () => {
    const first = new Set(stratifiedSample(tasks, { fraction: 0.2, seed: 42 }).tasks.map((t) => t.id));
    const other = stratifiedSample(tasks, { fraction: 0.2, seed: 43 }).tasks.map((t) => t.id);
    expect(other.filter((id) => first.has(id)).length).toBeLessThan(other.length);
  });

  it('samples each benchmark separately with its own stream', () => {
    const two = [...benchmarkTasks({ easy: 50 }, 'b1'), ...benchmarkTasks({ easy: 50 }, 'b2')];
    const sample = stratifiedSample(two, { fraction: 0.5, seed: 'campaign' });
    const b1 = sample.tasks.filter((t) => t.benchmark === 'b1').map((t) => t.id);
    const b2 = sample.tasks.filter((t) => t.benchmark === 'b2').map((t) => t.id);
    expect(b1).toHaveLength(25);
    expect(b2).toHaveLength(25);
    expect(b1).not.toEqual(b2);
  });

  it('rejects a fraction outside [0, 1] and duplicate task ids', () => {
    expect(() => stratifiedSample(tasks, { fraction: 1.5, seed: 1 })).toThrow(RangeError);
    expect(() => stratifiedSample([...tasks, tasks[0]!], { fraction: 0.2, seed: 1 })).toThrow(/twice/);
  });
});
