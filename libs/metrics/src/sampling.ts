import { roundHalfUp } from './numeric.util.js';
import { mulberry32, seedFrom, shuffleInPlace } from './prng.js';

export interface SamplableTask {
  id: string;
  /** The stratum set: a benchmark, or a suite when a campaign samples suites separately. */
  benchmark: string;
  /** The difficulty group (stratum) inside the benchmark. */
  group: string;
}

export interface StratumSummary {
  benchmark: string;
  group: string;
  /** N_g: tasks in the group. */
  size: number;
  /** n_g = round_half_up(f x N_g). */
  sampled: number;
}

export interface StratifiedSample<T extends SamplableTask> {
  tasks: T[];
  strata: StratumSummary[];
}

/**
 * Stratified seeded sampling. Each (benchmark, group) stratum keeps
 * n_g = round_half_up(f x N_g) tasks: the stratum's tasks are put in a
 * canonical order (by id, so the input order does not matter), shuffled by
 * Fisher-Yates with the mulberry32 stream seeded by
 * seedFrom(campaignSeed, benchmark, group), and the first n_g taken.
 * Strata come out ordered by benchmark then group, tasks in shuffle order.
 */
export function stratifiedSample<T extends SamplableTask>(
  tasks: readonly T[],
  options: { fraction: number; seed: number | string },
): StratifiedSample<T> {
  const { fraction, seed } = options;
  if (!(fraction >= 0 && fraction <= 1)) throw new RangeError(`sampling: fraction must be in [0, 1], got ${fraction}`);
  const strata = new Map<string, T[]>();
  const seenIds = new Set<string>();
  for (const task of tasks) {
    const idKey = `${task.benchmark}\u001f${task.id}`;
    if (seenIds.has(idKey)) throw new RangeError(`sampling: task ${task.id} appears twice in benchmark ${task.benchmark}`);
    seenIds.add(idKey);
    const key = `${task.benchmark}\u001f${task.group}`;
    const list = strata.get(key);
    if (list) list.push(task);
    else strata.set(key, [task]);
  }
  const keys = [...strata.keys()].sort();
  const sample: T[] = [];
  const summaries: StratumSummary[] = [];
  for (const key of keys) {
    const members = strata.get(key)!.slice().sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const { benchmark, group } = members[0]!;
    const take = Math.min(members.length, roundHalfUp(fraction * members.length));
    shuffleInPlace(members, mulberry32(seedFrom(seed, benchmark, group)));
    sample.push(...members.slice(0, take));
    summaries.push({ benchmark, group, size: members.length, sampled: take });
  }
  return { tasks: sample, strata: summaries };
}
