import { describe, expect, it } from 'vitest';
import { makeExecution } from '../../../../test/fixtures/metrics/execution.factory.js';
import type { Execution } from '../execution.types.js';
import { holm } from '../holm.js';
import { mcnemarExact } from '../mcnemar.js';
import { buildReport } from '../report/build-report.js';
import { formatComparison } from '../report/format-report.js';
import { buildComparison } from './build-comparison.js';
import type { ComparedExecution } from './comparison.types.js';

/**
 * Hand-built study: agents codex and claude, benchmarks "big" (kLOC 40) and
 * "small" (kLOC 3), tasks t0..t3, modes concurrent / sequential.
 *   codex  big:   concurrent resolves t0 t1 t2, sequential t0        -> b = 2 (t1 t2), c = 0
 *   codex  small: concurrent resolves t0,       sequential t0 t3     -> b = 0, c = 1 (t3)
 *   claude big:   both resolve t0                                    -> b = c = 0
 *   claude small: concurrent t1, sequential t2                       -> b = 1, c = 1
 */
const RESOLVED: Record<string, Record<string, Record<string, number[]>>> = {
  codex: { big: { concurrent: [0, 1, 2], sequential: [0] }, small: { concurrent: [0], sequential: [0, 3] } },
  claude: { big: { concurrent: [0], sequential: [0] }, small: { concurrent: [1], sequential: [2] } },
};

function study(): ComparedExecution[] {
  const out: ComparedExecution[] = [];
  for (const [agent, benches] of Object.entries(RESOLVED)) {
    for (const [benchmark, modes] of Object.entries(benches)) {
      for (const [mode, solved] of Object.entries(modes)) {
        for (let t = 0; t < 4; t++) {
          const resolved = solved.includes(t);
          out.push({
            ...makeExecution({
              agent,
              benchmark,
              mode,
              task: `t${t}`,
              resolved,
              testsPassed: resolved ? 10 : mode === 'concurrent' ? 5 : 2,
              // Concurrent is 300 s faster on t0 (50% of 600): a "faster" benefit when both solve it.
              wallSeconds: mode === 'concurrent' && t === 0 ? 300 : 600,
              shellCalls: mode === 'concurrent' ? 20 : 10,
              costUsd: mode === 'concurrent' ? 2 : 1,
              referenceKloc: benchmark === 'big' ? 40 : 3,
            }),
            id: `${agent}/${benchmark}/${mode}/t${t}`,
          });
        }
      }
    }
  }
  return out;
}

describe('buildComparison (modes)', () => {
  const comparison = buildComparison(study(), { by: 'mode', modeA: 'concurrent', modeB: 'sequential' }, { resamples: 2_000, seed: 7 });

  it('counts b and c per benchmark and pools them per agent under the study family, with Holm over agents', () => {
    expect(comparison.benchmarks.map(({ subject, benchmark, pairs, b, c }) => ({ subject, benchmark, pairs, b, c }))).toEqual([
      { subject: 'claude', benchmark: 'big', pairs: 4, b: 0, c: 0 },
      { subject: 'claude', benchmark: 'small', pairs: 4, b: 1, c: 1 },
      { subject: 'codex', benchmark: 'big', pairs: 4, b: 2, c: 0 },
      { subject: 'codex', benchmark: 'small', pairs: 4, b: 0, c: 1 },
    ]);
    expect(comparison.tests.map(({ subject, benchmark, b, c }) => ({ subject, benchmark, b, c }))).toEqual([
      { subject: 'claude', benchmark: null, b: 1, c: 1 },
      { subject: 'codex', benchmark: null, b: 2, c: 1 },
    ]);
    // Hand values: McNemar(1,1) = 1; McNemar(2,1) = 2 * (1 + 3) / 8 = 1 -> both 1, Holm keeps 1.
    expect(comparison.tests.map((t) => [t.p, t.pAdjusted])).toEqual([
      [1, 1],
      [1, 1],
    ]);
    expect(comparison.family).toEqual({
      correction: 'holm',
      family: 'pooled',
      m: 2,
      description: 'exact McNemar of concurrent vs sequential (resolved): one test per agent, pooling all benchmarks',
    });
  });

  it('the per-benchmark family has one test per agent x benchmark, Holm over all of them', () => {
    const per = buildComparison(study(), { by: 'mode', modeA: 'concurrent', modeB: 'sequential' }, { family: 'perBenchmark', resamples: 100 });
    expect(per.family.m).toBe(4);
    const raw = [mcnemarExact(0, 0).p, mcnemarExact(1, 1).p, mcnemarExact(2, 0).p, mcnemarExact(0, 1).p];
    expect(per.tests.map((t) => t.p)).toEqual(raw);
    expect(per.tests.map((t) => t.pAdjusted)).toEqual(holm(raw));
    // McNemar(2, 0) = 2 / 4 = 0.5, times m - rank + 1 = 4 -> 1 after Holm.
    expect(per.tests[2]).toMatchObject({ subject: 'codex', benchmark: 'big', p: 0.5, pAdjusted: 1 });
  });

  it('lays out Table 2 as A / B with the same figures as the report', () => {
    const report = buildReport(study(), { permutations: 10 });
    for (const row of comparison.benchmarks) {
      const a = report.outcomes.find((o) => o.agent === row.subject && o.benchmark === row.benchmark && o.mode === 'concurrent')!;
      const b = report.outcomes.find((o) => o.agent === row.subject && o.benchmark === row.benchmark && o.mode === 'sequential')!;
      for (const key of ['n', 'resolved', 'taskPass', 'testPass', 'shellCalls', 'minutes', 'tokensMillions', 'costUsd', 'tokensPerSolved', 'costPerSolved', 'infraFailed', 'noTests'] as const) {
        expect(row[key], `${row.subject} ${row.benchmark} ${key}`).toEqual({ a: a[key], b: b[key] });
      }
    }
    expect(comparison.benchmarks[2]).toMatchObject({ subject: 'codex', benchmark: 'big', taskPass: { a: 0.75, b: 0.25 }, costUsd: { a: 2, b: 1 } });
    expect(comparison.differenceBySize).toEqual(report.differenceBySize);
  });

  it('lists discordant and benefit pairs linked to both executions, with reasons', () => {
    expect(comparison.discordantPairs.filter((p) => p.subject === 'codex')).toEqual([
      expect.objectContaining({ benchmark: 'big', task: 't1', resolvedBy: 'A', executionA: 'codex/big/concurrent/t1', executionB: 'codex/big/sequential/t1' }),
      expect.objectContaining({ benchmark: 'big', task: 't2', resolvedBy: 'A' }),
      expect.objectContaining({ benchmark: 'small', task: 't3', resolvedBy: 'B' }),
    ]);
    const codexBig = comparison.benefitPairs.filter((p) => p.subject === 'codex' && p.benchmark === 'big');
    expect(codexBig.map((p) => [p.task, p.reasons])).toEqual([
      ['t0', ['faster']],
      ['t1', ['higherTestPass', 'resolvedOnlyInA']],
      ['t2', ['higherTestPass', 'resolvedOnlyInA']],
      ['t3', ['higherTestPass']],
    ]);
    expect(comparison.benchmarks[2]!.benefitPairs).toBe(4);
    // Both solved t0 only; concurrent 50% faster there.
    expect(comparison.benchmarks[2]).toMatchObject({ bothSolved: 1, aFaster: 1, aFasterShare: 1, aFaster20Share: 1 });
  });

  it('gives a paired bootstrap interval of the test-pass difference around the observed mean', () => {
    const codexBig = comparison.benchmarks[2]!.testPassDifference!;
    // Differences per task: t0 0, t1 0.8, t2 0.8, t3 0.3 -> mean 0.475.
    expect(codexBig.n).toBe(4);
    expect(codexBig.mean).toBeCloseTo(0.475, 12);
    expect(codexBig.lower).toBeGreaterThanOrEqual(0);
    expect(codexBig.upper).toBeLessThanOrEqual(0.8);
    expect(codexBig.lower).toBeLessThan(codexBig.mean);
    expect(codexBig.upper).toBeGreaterThan(codexBig.mean);
  });

  it('does not depend on the input order (same bits) and is reproducible from its seed', () => {
    const reversed = buildComparison([...study()].reverse(), { by: 'mode', modeA: 'concurrent', modeB: 'sequential' }, { resamples: 2_000, seed: 7 });
    expect(reversed).toEqual(comparison);
    const reseeded = buildComparison(study(), { by: 'mode', modeA: 'concurrent', modeB: 'sequential' }, { resamples: 2_000, seed: 8 });
    expect(reseeded.benchmarks[2]!.testPassDifference!.mean).toBe(comparison.benchmarks[2]!.testPassDifference!.mean);
  });

  it('keeps every agent in the family, with p = 1 when it has no pairs', () => {
    const lonely = [...study(), makeExecution({ agent: 'kimi', mode: 'concurrent', benchmark: 'big', task: 't0' })];
    const result = buildComparison(lonely, { by: 'mode', modeA: 'concurrent', modeB: 'sequential' }, { resamples: 10 });
    expect(result.tests.find((t) => t.subject === 'kimi')).toMatchObject({ pairs: 0, b: 0, c: 0, p: 1, testPassDifference: null });
    expect(result.family.m).toBe(3);
    expect(result.inputs.unpaired).toBe(1);
  });

  it('never pairs executions of different groups (campaigns)', () => {
    const grouped = study().map((e) => ({ ...e, group: e.mode === 'concurrent' ? 'campaign-1' : 'campaign-2' }));
    const result = buildComparison(grouped, { by: 'mode', modeA: 'concurrent', modeB: 'sequential' }, { resamples: 10 });
    expect(result.inputs.pairs).toBe(0);
    expect(result.inputs.unpaired).toBe(32);
  });

  it('renders every format without NaN and with the sides named', () => {
    for (const format of ['table', 'markdown', 'csv', 'json'] as const) {
      const text = formatComparison(comparison, format);
      expect(text).not.toMatch(/NaN|undefined/);
      expect(text).toContain('concurrent');
    }
    expect(formatComparison(comparison, 'table')).toContain('75.0 / 25.0');
  });

  it('refuses equal sides and a bad family, naming them', () => {
    expect(() => buildComparison([], { by: 'mode', modeA: 'x', modeB: 'x' })).toThrow(/mode A and mode B must differ/);
    expect(() => buildComparison([], { by: 'agent', agentA: 'x', agentB: 'x', mode: 'm' })).toThrow(/agent A and agent B must differ/);
    expect(() => buildComparison([], { by: 'mode', modeA: 'a', modeB: 'b' }, { family: 'all' as never })).toThrow(/family must be/);
    expect(() => buildComparison([], { by: 'mode', modeA: 'a', modeB: 'b' }, { resamples: 0 })).toThrow(/resamples/);
  });
});

describe('buildComparison (agents)', () => {
  it('compares two agents in one mode on the same tasks; the subject of a row is the mode', () => {
    const executions: Execution[] = study();
    const result = buildComparison(executions, { by: 'agent', agentA: 'codex', agentB: 'claude', mode: 'concurrent' }, { resamples: 100 });
    expect(result.sideA).toBe('codex');
    expect(result.inputs.subjects).toEqual(['concurrent']);
    // big: codex t0 t1 t2, claude t0 -> b = 2; small: codex t0, claude t1 -> b = 1, c = 1.
    expect(result.benchmarks.map(({ benchmark, pairs, b, c }) => ({ benchmark, pairs, b, c }))).toEqual([
      { benchmark: 'big', pairs: 4, b: 2, c: 0 },
      { benchmark: 'small', pairs: 4, b: 1, c: 1 },
    ]);
    expect(result.tests).toHaveLength(1);
    expect(result.tests[0]).toMatchObject({ subject: 'concurrent', b: 3, c: 1, p: mcnemarExact(3, 1).p });
    expect(result.family.description).toContain('one test per mode');
    expect(result.benchmarks[0]!.taskPass).toEqual({ a: 0.75, b: 0.25 });
  });
});
