import type { Execution, SuccessRule } from './execution.types.js';
import { compareStrings, compositeKey, groupBy } from './grouping.util.js';
import { median } from './numeric.util.js';
import { executionTestPass, isResolved, isSuccess, summariseOutcomes } from './outcome.metrics.js';

/** Executions of the same agent, benchmark, suite, task and repetition, one per mode. */
export interface ExecutionPair {
  agent: string;
  benchmark: string;
  suite: string;
  task: string;
  repetition: number;
  a: Execution;
  b: Execution;
}

export interface Pairing {
  pairs: ExecutionPair[];
  /** Executions of mode A or B with no partner in the other mode. */
  unpaired: Execution[];
  /** Second and later executions with an identity already seen (kept out of the pairs). */
  duplicates: Execution[];
}

function pairIdentity(e: Execution): string {
  return compositeKey(e.agent, e.benchmark, e.suite, e.task, e.repetition);
}

/**
 * Pairs mode-A and mode-B executions by agent + benchmark + suite + task +
 * repetition. The first execution of an identity and mode wins; later ones
 * are returned as duplicates so a view can say how many were ignored.
 * Pairs come out sorted by agent, benchmark, suite, task, repetition.
 */
export function pairExecutions(executions: readonly Execution[], modeA: string, modeB: string): Pairing {
  const firstA = new Map<string, Execution>();
  const firstB = new Map<string, Execution>();
  const duplicates: Execution[] = [];
  for (const execution of executions) {
    const target = execution.mode === modeA ? firstA : execution.mode === modeB ? firstB : null;
    if (!target) continue;
    const key = pairIdentity(execution);
    if (target.has(key)) duplicates.push(execution);
    else target.set(key, execution);
  }
  const pairs: ExecutionPair[] = [];
  const unpaired: Execution[] = [];
  for (const [key, a] of firstA) {
    const b = firstB.get(key);
    if (!b) {
      unpaired.push(a);
      continue;
    }
    pairs.push({ agent: a.agent, benchmark: a.benchmark, suite: a.suite, task: a.task, repetition: a.repetition, a, b });
  }
  for (const [key, b] of firstB) if (!firstA.has(key)) unpaired.push(b);
  pairs.sort(
    (x, y) =>
      compareStrings(x.agent, y.agent) ||
      compareStrings(x.benchmark, y.benchmark) ||
      compareStrings(x.suite, y.suite) ||
      compareStrings(x.task, y.task) ||
      x.repetition - y.repetition,
  );
  return { pairs, unpaired, duplicates };
}

export interface DiscordantCounts {
  pairs: number;
  /** A succeeded, B did not. */
  b: number;
  /** B succeeded, A did not. */
  c: number;
}

/** b and c of McNemar: discordant pairs under "resolved" or a benchmark's success rule. */
export function discordantCounts(
  pairs: readonly ExecutionPair[],
  successOf: (execution: Execution) => boolean = isResolved,
): DiscordantCounts {
  let b = 0;
  let c = 0;
  for (const pair of pairs) {
    const a = successOf(pair.a);
    const other = successOf(pair.b);
    if (a && !other) b++;
    else if (other && !a) c++;
  }
  return { pairs: pairs.length, b, c };
}

/** Unique successes: b and c under the benchmark's success rule. */
export function uniqueSuccesses(pairs: readonly ExecutionPair[], rule: SuccessRule = 'resolved'): DiscordantCounts {
  return discordantCounts(pairs, (execution) => isSuccess(execution, rule));
}

export interface BothSolvedSpeed {
  /** Pairs resolved in both modes. */
  bothSolved: number;
  aFaster: number;
  /** aFaster / bothSolved; null when no pair was solved in both modes. */
  aFasterShare: number | null;
  /** Pairs where (B - A) / B >= 0.20 (wallSeconds). */
  aFaster20: number;
  aFaster20Share: number | null;
}

function relativeGain(a: number, b: number): number {
  // B = 0 cannot be beaten by a non-negative A: no gain rather than a NaN.
  return b > 0 ? (b - a) / b : 0;
}

export function bothSolvedSpeed(pairs: readonly ExecutionPair[]): BothSolvedSpeed {
  let bothSolved = 0;
  let aFaster = 0;
  let aFaster20 = 0;
  for (const pair of pairs) {
    if (!isResolved(pair.a) || !isResolved(pair.b)) continue;
    bothSolved++;
    if (pair.a.wallSeconds < pair.b.wallSeconds) aFaster++;
    if (relativeGain(pair.a.wallSeconds, pair.b.wallSeconds) >= 0.2) aFaster20++;
  }
  return {
    bothSolved,
    aFaster,
    aFasterShare: bothSolved === 0 ? null : aFaster / bothSolved,
    aFaster20,
    aFaster20Share: bothSolved === 0 ? null : aFaster20 / bothSolved,
  };
}

export type BenefitReason = 'higherTestPass' | 'resolvedOnlyInA' | 'faster';

/**
 * Why A benefits over B in this pair (empty when it does not): A's test pass
 * is higher; A resolved and B did not; or A's test pass is at least B's and
 * A finished >= 60 s and >= 20% sooner.
 */
export function benefitReasons(pair: ExecutionPair): BenefitReason[] {
  const reasons: BenefitReason[] = [];
  const testA = executionTestPass(pair.a);
  const testB = executionTestPass(pair.b);
  if (testA > testB) reasons.push('higherTestPass');
  if (isResolved(pair.a) && !isResolved(pair.b)) reasons.push('resolvedOnlyInA');
  const saved = pair.b.wallSeconds - pair.a.wallSeconds;
  if (testA >= testB && saved >= 60 && relativeGain(pair.a.wallSeconds, pair.b.wallSeconds) >= 0.2) reasons.push('faster');
  return reasons;
}

export interface SizeDifference {
  benchmark: string;
  /** Median referenceKloc over the benchmark's distinct tasks that declare one; null when none do. */
  medianReferenceKloc: number | null;
  /** Agents with executions in both modes on this benchmark (each weighs the same). */
  agents: string[];
  /** Mean over agents of (test pass A - test pass B), in percentage points; null with no agent. */
  differencePp: number | null;
}

/**
 * Difference by size: per benchmark, the equal-weight mean over agents of
 * test pass A - test pass B (each mode's group rate over all its executions,
 * as in the outcome table), benchmarks ordered by median referenceKloc
 * (benchmarks without a size last, then by name).
 */
export function differenceBySize(executions: readonly Execution[], modeA: string, modeB: string): SizeDifference[] {
  const byBenchmark = groupBy(executions, (e) => e.benchmark);
  const rows: SizeDifference[] = [];
  for (const [benchmark, members] of byBenchmark) {
    const klocByTask = new Map<string, number>();
    for (const e of members) {
      if (e.referenceKloc !== undefined && e.referenceKloc !== null) klocByTask.set(compositeKey(e.suite, e.task), e.referenceKloc);
    }
    const agents: string[] = [];
    const differences: number[] = [];
    const byAgent = [...groupBy(members, (e) => e.agent)].sort((x, y) => compareStrings(x[0], y[0]));
    for (const [agent, agentExecutions] of byAgent) {
      const a = summariseOutcomes(agentExecutions.filter((e) => e.mode === modeA)).testPass;
      const b = summariseOutcomes(agentExecutions.filter((e) => e.mode === modeB)).testPass;
      if (a === null || b === null) continue;
      agents.push(agent);
      differences.push((a - b) * 100);
    }
    rows.push({
      benchmark,
      medianReferenceKloc: median([...klocByTask.values()]),
      agents,
      differencePp: differences.length === 0 ? null : differences.reduce((s, d) => s + d, 0) / differences.length,
    });
  }
  return rows.sort((x, y) => {
    if (x.medianReferenceKloc === null || y.medianReferenceKloc === null) {
      if (x.medianReferenceKloc !== y.medianReferenceKloc) return x.medianReferenceKloc === null ? 1 : -1;
    } else if (x.medianReferenceKloc !== y.medianReferenceKloc) {
      return x.medianReferenceKloc - y.medianReferenceKloc;
    }
    return compareStrings(x.benchmark, y.benchmark);
  });
}
