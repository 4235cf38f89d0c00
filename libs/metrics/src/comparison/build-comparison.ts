import { pairedBootstrapInterval, type BootstrapInterval } from '../bootstrap.js';
import type { SuccessRule } from '../execution.types.js';
import { compareExecutions, compareStrings, compositeKey, groupBy } from '../grouping.util.js';
import { holm } from '../holm.js';
import { mcnemarExact } from '../mcnemar.js';
import { executionTestPass, isResolved, summariseOutcomes, type OutcomeSummary } from '../outcome.metrics.js';
import { benefitReasons, bothSolvedSpeed, differenceBySize, discordantCounts, uniqueSuccesses, type ExecutionPair } from '../paired.metrics.js';
import { seedFrom } from '../prng.js';
import type {
  AB,
  BenefitPair,
  Comparison,
  ComparisonBenchmarkRow,
  ComparisonFamily,
  ComparisonOptions,
  ComparisonPairRow,
  ComparisonSpec,
  ComparisonTestRow,
  ComparedExecution,
  DiscordantPair,
} from './comparison.types.js';

export const DEFAULT_COMPARISON_OPTIONS = { family: 'pooled' as ComparisonFamily, resamples: 10_000, seed: 1 };

type Side = 'A' | 'B';

interface Placed {
  execution: ComparedExecution;
  side: Side;
  subject: string;
}

interface ComparedPair extends ExecutionPair {
  subject: string;
  group: string | null;
  a: ComparedExecution;
  b: ComparedExecution;
}

function place(execution: ComparedExecution, spec: ComparisonSpec): Placed | null {
  if (spec.by === 'mode') {
    const side = execution.mode === spec.modeA ? 'A' : execution.mode === spec.modeB ? 'B' : null;
    return side ? { execution, side, subject: execution.agent } : null;
  }
  if (execution.mode !== spec.mode) return null;
  const side = execution.agent === spec.agentA ? 'A' : execution.agent === spec.agentB ? 'B' : null;
  return side ? { execution, side, subject: execution.mode } : null;
}

function validate(spec: ComparisonSpec, options: ComparisonOptions): void {
  if (spec.by === 'mode' && spec.modeA === spec.modeB) throw new RangeError(`comparison: mode A and mode B must differ (both are "${spec.modeA}")`);
  if (spec.by === 'agent' && spec.agentA === spec.agentB) throw new RangeError(`comparison: agent A and agent B must differ (both are "${spec.agentA}")`);
  const resamples = options.resamples ?? DEFAULT_COMPARISON_OPTIONS.resamples;
  if (!Number.isInteger(resamples) || resamples < 1) throw new RangeError(`comparison: resamples must be a positive integer, got ${resamples}`);
  if (options.family !== undefined && options.family !== 'pooled' && options.family !== 'perBenchmark') {
    throw new RangeError(`comparison: family must be "pooled" or "perBenchmark", got ${JSON.stringify(options.family)}`);
  }
}

/** Pairs A and B executions of the same group, subject, benchmark, suite, task and repetition; the first of an identity and side wins. */
function pairUp(placed: readonly Placed[]): { pairs: ComparedPair[]; unpaired: number; duplicates: number } {
  const first = { A: new Map<string, Placed>(), B: new Map<string, Placed>() };
  let duplicates = 0;
  for (const item of placed) {
    const e = item.execution;
    const key = compositeKey(e.group ?? '', item.subject, e.benchmark, e.suite, e.task, e.repetition);
    if (first[item.side].has(key)) duplicates++;
    else first[item.side].set(key, item);
  }
  const pairs: ComparedPair[] = [];
  for (const [key, a] of first.A) {
    const b = first.B.get(key);
    if (!b) continue;
    const e = a.execution;
    pairs.push({ subject: a.subject, group: e.group ?? null, agent: e.agent, benchmark: e.benchmark, suite: e.suite, task: e.task, repetition: e.repetition, a: e, b: b.execution });
  }
  const unpaired = first.A.size + first.B.size - 2 * pairs.length;
  pairs.sort(
    (x, y) =>
      compareStrings(x.subject, y.subject) ||
      compareStrings(x.benchmark, y.benchmark) ||
      compareStrings(x.group ?? '', y.group ?? '') ||
      compareStrings(x.suite, y.suite) ||
      compareStrings(x.task, y.task) ||
      x.repetition - y.repetition,
  );
  return { pairs, unpaired, duplicates };
}

function ab(a: OutcomeSummary, b: OutcomeSummary, key: keyof Omit<OutcomeSummary, 'taskPassInterval'>): AB {
  return { a: a[key], b: b[key] };
}

function bootstrap(pairs: readonly ComparedPair[], resamples: number, seed: number, subject: string, benchmark: string | null): BootstrapInterval | null {
  return pairedBootstrapInterval(
    pairs.map((p) => executionTestPass(p.a)),
    pairs.map((p) => executionTestPass(p.b)),
    { resamples, seed: seedFrom(seed, subject, benchmark ?? '') },
  );
}

function pairRow(pair: ComparedPair): ComparisonPairRow {
  return {
    subject: pair.subject,
    group: pair.group,
    benchmark: pair.benchmark,
    suite: pair.suite,
    task: pair.task,
    repetition: pair.repetition,
    executionA: pair.a.id ?? null,
    executionB: pair.b.id ?? null,
  };
}

function sideNames(spec: ComparisonSpec): [string, string] {
  return spec.by === 'mode' ? [spec.modeA, spec.modeB] : [spec.agentA, spec.agentB];
}

/**
 * The paired comparison of metrics.md: per subject x benchmark the study's
 * Table 2 (every outcome figure as A / B, over all executions of each side),
 * with b, c, the benchmark's own exact McNemar p, unique successes, both-solved
 * speed shares, benefit-pair count and a paired bootstrap interval of the
 * test-pass difference; the family of McNemar tests with Holm; the discordant
 * and benefit pairs (linked by execution id); the difference by size.
 */
export function buildComparison(input: readonly ComparedExecution[], spec: ComparisonSpec, options: ComparisonOptions = {}): Comparison {
  validate(spec, options);
  const family = options.family ?? DEFAULT_COMPARISON_OPTIONS.family;
  const resamples = options.resamples ?? DEFAULT_COMPARISON_OPTIONS.resamples;
  const seed = options.seed ?? DEFAULT_COMPARISON_OPTIONS.seed;
  const successRules: Record<string, SuccessRule> = { ...(options.successRules ?? {}) };
  const [sideA, sideB] = sideNames(spec);

  // The report's canonical order, so group sums are added in the same order and come out bit-identical to it.
  const sorted = [...input].sort((x, y) => compareExecutions(x, y) || compareStrings(x.group ?? '', y.group ?? ''));
  const placed = sorted.map((e) => place(e, spec)).filter((p): p is Placed => p !== null);
  const subjects = [...new Set(placed.map((p) => p.subject))].sort(compareStrings);
  const benchmarks = [...new Set(placed.map((p) => p.execution.benchmark))].sort(compareStrings);
  const { pairs, unpaired, duplicates } = pairUp(placed);
  const pairsByCell = groupBy(pairs, (p) => compositeKey(p.subject, p.benchmark));
  const placedByCell = groupBy(placed, (p) => compositeKey(p.subject, p.execution.benchmark));

  const rows: ComparisonBenchmarkRow[] = [];
  const discordantPairs: DiscordantPair[] = [];
  const benefitPairs: BenefitPair[] = [];
  for (const subject of subjects) {
    for (const benchmark of benchmarks) {
      const members = placedByCell.get(compositeKey(subject, benchmark));
      if (!members) continue;
      const cellPairs = pairsByCell.get(compositeKey(subject, benchmark)) ?? [];
      const a = summariseOutcomes(members.filter((m) => m.side === 'A').map((m) => m.execution));
      const b = summariseOutcomes(members.filter((m) => m.side === 'B').map((m) => m.execution));
      const counts = discordantCounts(cellPairs);
      const successRule = successRules[benchmark] ?? 'resolved';
      const unique = uniqueSuccesses(cellPairs, successRule);
      let benefits = 0;
      for (const pair of cellPairs) {
        const aResolved = isResolved(pair.a);
        if (aResolved !== isResolved(pair.b)) discordantPairs.push({ ...pairRow(pair), resolvedBy: aResolved ? 'A' : 'B' });
        const reasons = benefitReasons(pair);
        if (reasons.length > 0) {
          benefits++;
          benefitPairs.push({ ...pairRow(pair), reasons });
        }
      }
      rows.push({
        subject,
        benchmark,
        n: ab(a, b, 'n'),
        resolved: ab(a, b, 'resolved'),
        taskPass: ab(a, b, 'taskPass'),
        testPass: ab(a, b, 'testPass'),
        shellCalls: ab(a, b, 'shellCalls'),
        minutes: ab(a, b, 'minutes'),
        tokensMillions: ab(a, b, 'tokensMillions'),
        costUsd: ab(a, b, 'costUsd'),
        tokensPerSolved: ab(a, b, 'tokensPerSolved'),
        costPerSolved: ab(a, b, 'costPerSolved'),
        infraFailed: ab(a, b, 'infraFailed'),
        noTests: ab(a, b, 'noTests'),
        pairs: counts.pairs,
        b: counts.b,
        c: counts.c,
        pUnadjusted: mcnemarExact(counts.b, counts.c).p,
        successRule,
        uniqueA: unique.b,
        uniqueB: unique.c,
        ...bothSolvedSpeed(cellPairs),
        benefitPairs: benefits,
        testPassDifference: bootstrap(cellPairs, resamples, seed, subject, benchmark),
      });
    }
  }

  // The family is declared up front: every subject (x benchmark) with executions, pairs or not (p = 1 without), so none vanishes.
  const rawTests: Omit<ComparisonTestRow, 'pAdjusted'>[] = [];
  const pairsBySubject = groupBy(pairs, (p) => p.subject);
  if (family === 'pooled') {
    for (const subject of subjects) {
      const subjectPairs = pairsBySubject.get(subject) ?? [];
      const counts = discordantCounts(subjectPairs);
      const test = mcnemarExact(counts.b, counts.c);
      rawTests.push({ subject, benchmark: null, pairs: counts.pairs, b: counts.b, c: counts.c, p: test.p, log10P: test.log10P, testPassDifference: bootstrap(subjectPairs, resamples, seed, subject, null) });
    }
  } else {
    for (const row of rows) {
      const test = mcnemarExact(row.b, row.c);
      rawTests.push({ subject: row.subject, benchmark: row.benchmark, pairs: row.pairs, b: row.b, c: row.c, p: test.p, log10P: test.log10P, testPassDifference: row.testPassDifference });
    }
  }
  const adjusted = holm(rawTests.map((t) => t.p));
  const tests = rawTests.map((t, i) => ({ ...t, pAdjusted: adjusted[i] ?? null }));

  const subjectWord = spec.by === 'mode' ? 'agent' : 'mode';
  const description =
    family === 'pooled'
      ? `exact McNemar of ${sideA} vs ${sideB} (resolved): one test per ${subjectWord}, pooling all benchmarks`
      : `exact McNemar of ${sideA} vs ${sideB} (resolved): one test per ${subjectWord} x benchmark`;

  // Difference by size over subjects: the same function as the report, on executions relabelled subject / side.
  const relabelled = placed.map((p) => ({ ...p.execution, agent: p.subject, mode: p.side }));

  return {
    spec,
    options: { family, resamples, seed, successRules },
    sideA,
    sideB,
    inputs: { executions: placed.length, subjects, benchmarks, pairs: pairs.length, unpaired, duplicates },
    benchmarks: rows,
    tests,
    family: { correction: 'holm', family, description, m: tests.length },
    discordantPairs,
    benefitPairs,
    differenceBySize: differenceBySize(relabelled, 'A', 'B'),
  };
}
