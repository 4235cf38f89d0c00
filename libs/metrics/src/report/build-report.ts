import type { Execution, SuccessRule } from '../execution.types.js';
import { compareExecutions, compareStrings, compositeKey, groupBy } from '../grouping.util.js';
import { holm } from '../holm.js';
import { mcnemarExact } from '../mcnemar.js';
import { summariseOutcomes } from '../outcome.metrics.js';
import {
  benefitReasons,
  bothSolvedSpeed,
  differenceBySize,
  discordantCounts,
  pairExecutions,
  uniqueSuccesses,
  type ExecutionPair,
} from '../paired.metrics.js';
import { delegationSections } from './delegation-report.js';
import type { BenefitPairRow, OutcomeRow, PairedBenchmarkRow, Report, ReportOptions, SpeedRow, UniqueSuccessRow } from './report.types.js';

export const DEFAULT_REPORT_OPTIONS = {
  modeA: 'concurrent',
  modeB: 'sequential',
  permutations: 10_000,
  seed: 1,
} as const;

function sortedUnique(values: Iterable<string>): string[] {
  return [...new Set(values)].sort(compareStrings);
}

/**
 * The study's tables for a set of executions: outcomes per agent x benchmark
 * x mode, the paired comparison of mode A vs mode B (McNemar per agent with
 * Holm over all agents, pooling benchmarks), unique successes, both-solved
 * speed, benefit pairs, difference by size, delegation aggregates and the
 * Spearman tests, plus the families of tests corrected together.
 */
export function buildReport(input: readonly Execution[], options: ReportOptions = {}): Report {
  const modeA = options.modeA ?? DEFAULT_REPORT_OPTIONS.modeA;
  const modeB = options.modeB ?? DEFAULT_REPORT_OPTIONS.modeB;
  const permutations = options.permutations ?? DEFAULT_REPORT_OPTIONS.permutations;
  const seed = options.seed ?? DEFAULT_REPORT_OPTIONS.seed;
  const successRules: Record<string, SuccessRule> = { ...(options.successRules ?? {}) };
  if (modeA === modeB) throw new RangeError(`report: mode A and mode B must differ (both are "${modeA}")`);
  // Canonical order first: floating-point sums then come out bit-identical whatever the file's line order.
  const executions = [...input].sort(compareExecutions);

  const agents = sortedUnique(executions.map((e) => e.agent));
  const benchmarks = sortedUnique(executions.map((e) => e.benchmark));
  const modes = sortedUnique(executions.map((e) => e.mode));
  const modeRank = (mode: string): number => (mode === modeA ? 0 : mode === modeB ? 1 : 2);

  const outcomes: OutcomeRow[] = [];
  const outcomeGroups = [...groupBy(executions, (e) => compositeKey(e.agent, e.benchmark, e.mode)).values()].sort(
    (x, y) =>
      compareStrings(x[0]!.agent, y[0]!.agent) ||
      compareStrings(x[0]!.benchmark, y[0]!.benchmark) ||
      modeRank(x[0]!.mode) - modeRank(y[0]!.mode) ||
      compareStrings(x[0]!.mode, y[0]!.mode),
  );
  for (const group of outcomeGroups) {
    const { agent, benchmark, mode } = group[0]!;
    const { taskPassInterval, ...summary } = summariseOutcomes(group);
    outcomes.push({
      agent,
      benchmark,
      mode,
      ...summary,
      taskPassLower: taskPassInterval?.lower ?? null,
      taskPassUpper: taskPassInterval?.upper ?? null,
    });
  }

  const pairing = pairExecutions(executions, modeA, modeB);
  const pairsByAgent = groupBy(pairing.pairs, (p) => p.agent);
  // The family: every agent with executions in mode A or B, pairs or not (p = 1 with none), so none vanishes.
  const comparedAgents = sortedUnique(executions.filter((e) => e.mode === modeA || e.mode === modeB).map((e) => e.agent));
  const mcnemarRaw = comparedAgents.map((agent) => {
    const counts = discordantCounts(pairsByAgent.get(agent) ?? []);
    const test = mcnemarExact(counts.b, counts.c);
    return { agent, pairs: counts.pairs, b: counts.b, c: counts.c, p: test.p, log10P: test.log10P };
  });
  const mcnemarAdjusted = holm(mcnemarRaw.map((row) => row.p));
  const mcnemar = mcnemarRaw.map((row, i) => ({ ...row, pAdjusted: mcnemarAdjusted[i] ?? null }));

  const pairedByBenchmark: PairedBenchmarkRow[] = [];
  const uniqueRows: UniqueSuccessRow[] = [];
  const speedRows: SpeedRow[] = [];
  const benefitPairs: BenefitPairRow[] = [];
  for (const group of groupBy(pairing.pairs, (p) => compositeKey(p.agent, p.benchmark)).values()) {
    const { agent, benchmark } = group[0]!;
    const counts = discordantCounts(group);
    pairedByBenchmark.push({ agent, benchmark, pairs: counts.pairs, b: counts.b, c: counts.c, pUnadjusted: mcnemarExact(counts.b, counts.c).p });
    const successRule = successRules[benchmark] ?? 'resolved';
    const unique = uniqueSuccesses(group, successRule);
    uniqueRows.push({ agent, benchmark, successRule, a: unique.b, b: unique.c });
    speedRows.push({ agent, benchmark, ...bothSolvedSpeed(group) });
    for (const pair of group) benefitPairs.push(...benefitRow(pair));
  }

  const delegation = delegationSections(executions, modeA, permutations, seed);

  return {
    options: { modeA, modeB, permutations, seed, successRules },
    inputs: {
      executions: executions.length,
      agents,
      benchmarks,
      modes,
      pairs: pairing.pairs.length,
      unpaired: pairing.unpaired.length,
      duplicates: pairing.duplicates.length,
    },
    outcomes,
    mcnemar,
    pairedByBenchmark,
    uniqueSuccesses: uniqueRows,
    bothSolvedSpeed: speedRows,
    benefitPairs,
    differenceBySize: differenceBySize(executions, modeA, modeB),
    delegation: delegation.delegation,
    neverOverlapping: delegation.neverOverlapping,
    spearman: delegation.spearman,
    familyOfTests: {
      mcnemar: {
        correction: 'holm',
        description: `exact McNemar of ${modeA} vs ${modeB} (resolved): one test per agent, pooling all benchmarks`,
        m: mcnemar.length,
        members: mcnemar.map(({ agent }) => ({ agent })),
      },
      spearman: delegation.spearmanFamily,
    },
  };
}

function benefitRow(pair: ExecutionPair): BenefitPairRow[] {
  const reasons = benefitReasons(pair);
  if (reasons.length === 0) return [];
  const { agent, benchmark, suite, task, repetition } = pair;
  return [{ agent, benchmark, suite, task, repetition, reasons }];
}
