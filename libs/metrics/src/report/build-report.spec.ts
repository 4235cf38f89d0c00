import { describe, expect, it } from 'vitest';
import { makeExecution, spans } from '../../../../test/fixtures/metrics/execution.factory.js';
import type { Difficulty, Execution } from '../execution.types.js';
import { mcnemarExact } from '../mcnemar.js';
import { buildReport } from './build-report.js';

const difficulties: Difficulty[] = ['easy', 'medium', 'hard'];

/** 2 agents x 2 benchmarks x 6 tasks x 2 modes, with known resolutions. */
function study(): Execution[] {
  const executions: Execution[] = [];
  for (const agent of ['claude', 'codex']) {
    for (const benchmark of ['big', 'small']) {
      for (let t = 0; t < 6; t++) {
        const difficulty = difficulties[t % 3]!;
        const subs = (t % 3) + 1;
        const common = { agent, benchmark, task: `t${t}`, difficulty, referenceKloc: benchmark === 'big' ? 40 : 3 };
        const concurrentResolved = agent === 'codex' ? t < 4 : t < 2;
        executions.push(
          makeExecution({
            ...common,
            mode: 'concurrent',
            resolved: concurrentResolved,
            testsPassed: concurrentResolved ? 10 : 4,
            wallSeconds: 500,
            agents: spans([0, 100_000], Array.from({ length: subs }, (_, i): [string, number, number] => [`s${i}`, 10_000 + i * 5_000, 60_000])),
          }),
          makeExecution({ ...common, mode: 'sequential', resolved: t < 2, testsPassed: t < 2 ? 10 : 3, wallSeconds: 1000 }),
        );
      }
    }
  }
  return executions;
}

function hasNaN(value: unknown): boolean {
  if (typeof value === 'number') return Number.isNaN(value);
  if (Array.isArray(value)) return value.some(hasNaN);
  if (value && typeof value === 'object') return Object.values(value).some(hasNaN);
  return false;
}

describe('buildReport', () => {
  const report = buildReport(study(), { permutations: 999, seed: 3 });

  it('computes McNemar per agent pooling benchmarks, with Holm over all agents', () => {
    // codex: t2, t3 on both benchmarks resolved only concurrently -> b = 4, c = 0; claude: no discordant pair
    expect(report.mcnemar.map(({ agent, pairs, b, c }) => ({ agent, pairs, b, c }))).toEqual([
      { agent: 'claude', pairs: 12, b: 0, c: 0 },
      { agent: 'codex', pairs: 12, b: 4, c: 0 },
    ]);
    const codex = report.mcnemar[1]!;
    expect(codex.p).toBe(mcnemarExact(4, 0).p);
    expect(codex.pAdjusted).toBe(Math.min(1, 2 * codex.p));
    expect(report.familyOfTests.mcnemar).toMatchObject({ correction: 'holm', m: 2, members: [{ agent: 'claude' }, { agent: 'codex' }] });
  });

  it('has one outcome row per agent x benchmark x mode, mode A first', () => {
    expect(report.outcomes).toHaveLength(8);
    expect(report.outcomes[0]).toMatchObject({ agent: 'claude', benchmark: 'big', mode: 'concurrent', n: 6, taskPass: 2 / 6, infraFailed: 0 });
    expect(report.outcomes[1]!.mode).toBe('sequential');
  });

  it('lists benefit pairs with reasons, speed shares and unique successes', () => {
    const codexBig = report.benefitPairs.filter((p) => p.agent === 'codex' && p.benchmark === 'big');
    expect(codexBig.map((p) => p.task)).toEqual(['t0', 't1', 't2', 't3', 't4', 't5']);
    expect(codexBig[2]!.reasons).toEqual(['higherTestPass', 'resolvedOnlyInA', 'faster']);
    expect(codexBig[0]!.reasons).toEqual(['faster']);
    expect(report.bothSolvedSpeed.find((r) => r.agent === 'codex' && r.benchmark === 'big')).toMatchObject({ bothSolved: 2, aFasterShare: 1, aFaster20Share: 1 });
    expect(report.uniqueSuccesses.find((r) => r.agent === 'codex' && r.benchmark === 'small')).toMatchObject({ successRule: 'resolved', a: 2, b: 0 });
  });

  it('orders difference by size by median kLOC', () => {
    expect(report.differenceBySize.map((r) => r.benchmark)).toEqual(['small', 'big']);
  });

  it('aggregates delegation by difficulty and tests it against difficulty with Holm over agents x benchmarks x 2', () => {
    expect(report.delegation.find((r) => r.agent === 'codex' && r.benchmark === 'big' && r.difficulty === 'hard')).toMatchObject({
      mode: 'concurrent',
      n: 2,
      meanCreated: 3,
      meanPeak: 3,
    });
    expect(report.spearman).toHaveLength(8);
    expect(report.familyOfTests.spearman.m).toBe(8);
    const created = report.spearman.find((r) => r.agent === 'codex' && r.benchmark === 'big' && r.variable === 'created')!;
    expect(created.rho).toBeCloseTo(1, 12);
    expect(created.pAdjusted).toBeGreaterThanOrEqual(created.p!);
    expect(report.neverOverlapping).toEqual([
      { agent: 'claude', mode: 'concurrent', n: 12, neverOverlapping: 4, rate: 4 / 12 },
      { agent: 'codex', mode: 'concurrent', n: 12, neverOverlapping: 4, rate: 4 / 12 },
    ]);
  });

  it('is the same whatever the input order, and never contains NaN', () => {
    const shuffled = study().reverse();
    expect(JSON.stringify(buildReport(shuffled, { permutations: 999, seed: 3 }))).toBe(JSON.stringify(report));
    expect(hasNaN(report)).toBe(false);
    expect(hasNaN(buildReport([]))).toBe(false);
  });

  it('changes the permutation p with the seed but nothing else', () => {
    const other = buildReport(study(), { permutations: 999, seed: 4 });
    expect(other.mcnemar).toEqual(report.mcnemar);
    expect(other.spearman.map((r) => r.p)).not.toEqual(report.spearman.map((r) => r.p));
  });

  it('applies a benchmark success rule to unique successes only', () => {
    const withRule = buildReport(study(), { permutations: 0, successRules: { small: 'testPassAboveZero' } });
    expect(withRule.uniqueSuccesses.find((r) => r.agent === 'codex' && r.benchmark === 'small')).toMatchObject({ successRule: 'testPassAboveZero', a: 0, b: 0 });
    expect(withRule.mcnemar).toEqual(buildReport(study(), { permutations: 0 }).mcnemar);
  });

  it('refuses identical modes', () => {
    expect(() => buildReport(study(), { modeA: 'x', modeB: 'x' })).toThrow(/must differ/);
  });
});
