import { DIFFICULTIES, DIFFICULTY_SCORE, type Execution } from '../execution.types.js';
import { aggregateDelegation, delegationMetrics, type DelegationMetrics } from '../delegation.metrics.js';
import { compareStrings, compositeKey, groupBy } from '../grouping.util.js';
import { holm } from '../holm.js';
import { seedFrom } from '../prng.js';
import { spearmanPermutationTest } from '../spearman.js';
import type { DelegationRow, DelegationVariable, NeverOverlappingRow, Report, SpearmanRow } from './report.types.js';

/** The delegation view of one mode: the report's delegation tables and the family of Spearman tests. */
export type DelegationView = Pick<Report, 'delegation' | 'neverOverlapping' | 'spearman'> & { mode: string; spearmanFamily: Report['familyOfTests']['spearman'] };

const VARIABLES: readonly DelegationVariable[] = ['created', 'peak'];

interface Measured {
  execution: Execution;
  metrics: DelegationMetrics;
}

/**
 * Delegation aggregates by agent x benchmark x difficulty, the
 * created-but-never-overlapping rate per agent, and Spearman tests of
 * difficulty vs created / peak with Holm over agents x benchmarks x
 * {created, peak}, all on the executions of `mode`.
 */
export function delegationSections(
  executions: readonly Execution[],
  mode: string,
  permutations: number,
  seed: number,
): DelegationView {
  // Canonical order, so that the same file gives the same permutation p whatever its line order.
  const measured: Measured[] = executions
    .filter((e) => e.mode === mode)
    .sort(
      (x, y) =>
        compareStrings(x.agent, y.agent) ||
        compareStrings(x.benchmark, y.benchmark) ||
        compareStrings(x.suite, y.suite) ||
        compareStrings(x.task, y.task) ||
        x.repetition - y.repetition,
    )
    .map((execution) => ({ execution, metrics: delegationMetrics(execution.agents) }));

  const delegation: DelegationRow[] = [];
  const tests: Array<Omit<SpearmanRow, 'pAdjusted'>> = [];
  const byAgentBenchmark = groupBy(measured, (m) => compositeKey(m.execution.agent, m.execution.benchmark));
  for (const members of byAgentBenchmark.values()) {
    const { agent, benchmark } = members[0]!.execution;
    const byDifficulty = groupBy(members, (m) => m.execution.difficulty);
    for (const difficulty of DIFFICULTIES) {
      const group = byDifficulty.get(difficulty);
      if (!group) continue;
      const aggregate = aggregateDelegation(group.map((m) => m.metrics));
      delegation.push({ agent, benchmark, mode, difficulty, ...aggregate });
    }
    const scores = Float64Array.from(members, (m) => DIFFICULTY_SCORE[m.execution.difficulty]);
    for (const variable of VARIABLES) {
      const values = Float64Array.from(members, (m) => m.metrics[variable]);
      const result = spearmanPermutationTest(scores, values, {
        permutations,
        seed: seedFrom(seed, 'spearman', agent, benchmark, variable),
      });
      tests.push({ agent, benchmark, variable, n: result.n, rho: result.rho, p: result.p });
    }
  }
  const adjusted = holm(tests.map((t) => t.p));
  const spearman = tests.map((t, i) => ({ ...t, pAdjusted: adjusted[i] ?? null }));

  const neverOverlapping: NeverOverlappingRow[] = [];
  for (const members of groupBy(measured, (m) => m.execution.agent).values()) {
    const count = members.filter((m) => m.metrics.neverOverlapping).length;
    neverOverlapping.push({ agent: members[0]!.execution.agent, mode, n: members.length, neverOverlapping: count, rate: count / members.length });
  }

  return {
    mode,
    delegation,
    neverOverlapping,
    spearman,
    spearmanFamily: {
      correction: 'holm',
      description: `Spearman rho of difficulty (easy=1, medium=2, hard=3) vs created and peak sub-agents, mode ${mode}: one test per agent x benchmark x {created, peak}`,
      m: spearman.length,
      members: spearman.map(({ agent, benchmark, variable }) => ({ agent, benchmark, variable })),
    },
  };
}
