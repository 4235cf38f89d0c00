import { describe, expect, it } from 'vitest';
import { makeExecution } from '../../../test/fixtures/metrics/execution.factory.js';
import type { Execution } from './execution.types.js';
import { benefitReasons, bothSolvedSpeed, differenceBySize, discordantCounts, pairExecutions, uniqueSuccesses, type ExecutionPair } from './paired.metrics.js';

const A = 'concurrent';
const B = 'sequential';

function pair(a: Partial<Execution>, b: Partial<Execution>): ExecutionPair {
  return { agent: 'codex', benchmark: 'bench', suite: 'main', task: 't1', repetition: 0, a: makeExecution({ ...a, mode: A }), b: makeExecution({ ...b, mode: B }) };
}

describe('pairExecutions', () => {
  it('pairs by agent, benchmark, suite, task and repetition; reports unpaired and duplicates', () => {
    const executions = [
      makeExecution({ task: 't1', mode: A }),
      makeExecution({ task: 't1', mode: B }),
      makeExecution({ task: 't1', mode: B }), // duplicate
      makeExecution({ task: 't1', mode: A, repetition: 1 }), // no partner
      makeExecution({ task: 't2', mode: B, agent: 'claude' }), // no partner
      makeExecution({ task: 't1', mode: 'other' }), // neither mode
    ];
    const pairing = pairExecutions(executions, A, B);
    expect(pairing.pairs).toHaveLength(1);
    expect(pairing.pairs[0]).toMatchObject({ agent: 'codex', task: 't1', repetition: 0 });
    expect(pairing.unpaired).toHaveLength(2);
    expect(pairing.duplicates).toHaveLength(1);
  });
});

describe('discordant pairs and unique successes', () => {
  const pairs = [
    pair({ resolved: true, testsPassed: 10 }, { resolved: false, testsPassed: 3 }), // b
    pair({ resolved: true, testsPassed: 10 }, { resolved: true, testsPassed: 10 }), // both
    pair({ resolved: false, testsPassed: 0 }, { resolved: true, testsPassed: 10 }), // c
    pair({ resolved: false, testsPassed: 2 }, { resolved: false, testsPassed: 0 }), // neither resolved; A > 0 tests
    pair({ outcome: 'infra_failed', resolved: true }, { resolved: true, testsPassed: 10 }), // infra failure is not a success: c
  ];

  it('counts b (only A resolved) and c (only B resolved)', () => {
    expect(discordantCounts(pairs)).toEqual({ pairs: 5, b: 1, c: 2 });
  });

  it('uses the success rule for unique successes', () => {
    expect(uniqueSuccesses(pairs, 'resolved')).toEqual({ pairs: 5, b: 1, c: 2 });
    // test pass > 0: pair 1 both succeed, pair 4 only A
    expect(uniqueSuccesses(pairs, 'testPassAboveZero')).toEqual({ pairs: 5, b: 1, c: 2 });
    expect(uniqueSuccesses([pairs[3]!], 'testPassAboveZero')).toEqual({ pairs: 1, b: 1, c: 0 });
  });
});

describe('bothSolvedSpeed', () => {
  it('shares of pairs solved in both modes where A is faster, and >= 20% faster', () => {
    const solved = { resolved: true, testsPassed: 10 };
    const result = bothSolvedSpeed([
      pair({ ...solved, wallSeconds: 700 }, { ...solved, wallSeconds: 1000 }), // 30% faster
      pair({ ...solved, wallSeconds: 800 }, { ...solved, wallSeconds: 1000 }), // exactly 20%
      pair({ ...solved, wallSeconds: 900 }, { ...solved, wallSeconds: 1000 }), // 10%
      pair({ ...solved, wallSeconds: 1000 }, { ...solved, wallSeconds: 1000 }), // tie: not faster
      pair({ ...solved, wallSeconds: 10 }, { resolved: false, wallSeconds: 1000 }), // not both solved
    ]);
    expect(result).toEqual({ bothSolved: 4, aFaster: 3, aFasterShare: 0.75, aFaster20: 2, aFaster20Share: 0.5 });
  });

  it('is null without a pair solved in both modes', () => {
    expect(bothSolvedSpeed([pair({}, {})])).toMatchObject({ bothSolved: 0, aFasterShare: null, aFaster20Share: null });
  });
});

describe('benefitReasons', () => {
  it('lists every reason that applies', () => {
    expect(benefitReasons(pair({ testsPassed: 6 }, { testsPassed: 5 }))).toEqual(['higherTestPass']);
    expect(benefitReasons(pair({ resolved: true, testsPassed: 10 }, { testsPassed: 5 }))).toEqual(['higherTestPass', 'resolvedOnlyInA']);
    // the grader can resolve with the same test pass (required tests only)
    expect(benefitReasons(pair({ resolved: true, testsPassed: 9, wallSeconds: 100 }, { testsPassed: 9, wallSeconds: 1000 }))).toEqual(['resolvedOnlyInA', 'faster']);
  });

  it('needs both >= 60 s and >= 20% for "faster", with test pass at least equal', () => {
    expect(benefitReasons(pair({ wallSeconds: 700 }, { wallSeconds: 1000 }))).toEqual(['faster']);
    expect(benefitReasons(pair({ wallSeconds: 900 }, { wallSeconds: 1000 }))).toEqual([]); // 10%
    expect(benefitReasons(pair({ wallSeconds: 100 }, { wallSeconds: 200 }))).toEqual(['faster']); // 100 s, 50%
    expect(benefitReasons(pair({ wallSeconds: 50 }, { wallSeconds: 100 }))).toEqual([]); // 50 s only
    expect(benefitReasons(pair({ wallSeconds: 100, testsPassed: 1 }, { wallSeconds: 1000, testsPassed: 2 }))).toEqual([]);
  });
});

describe('differenceBySize', () => {
  it('averages agents with equal weight and orders benchmarks by median reference kLOC', () => {
    const run = (agent: string, benchmark: string, mode: string, testsPassed: number, referenceKloc: number | null, task = 't1') =>
      makeExecution({ agent, benchmark, mode, testsPassed, testsTotal: 10, referenceKloc, task });
    const rows = differenceBySize(
      [
        run('codex', 'big', A, 8, 50, 't1'),
        run('codex', 'big', B, 6, 50, 't1'),
        run('codex', 'big', A, 8, 30, 't2'),
        run('codex', 'big', B, 6, 30, 't2'),
        run('claude', 'big', A, 5, 50, 't1'),
        run('claude', 'big', B, 5, 50, 't1'),
        run('codex', 'small', A, 4, 2),
        run('codex', 'small', B, 5, 2),
        run('codex', 'unsized', A, 5, null),
        run('codex', 'unsized', B, 5, null),
        run('claude', 'small', A, 4, 2), // no mode B: not part of the mean
      ],
      A,
      B,
    );
    expect(rows.map((r) => r.benchmark)).toEqual(['small', 'big', 'unsized']);
    expect(rows[0]).toMatchObject({ medianReferenceKloc: 2, agents: ['codex'] });
    expect(rows[0]!.differencePp).toBeCloseTo(-10, 9);
    expect(rows[1]).toMatchObject({ medianReferenceKloc: 40, agents: ['claude', 'codex'] });
    expect(rows[1]!.differencePp).toBeCloseTo(10, 9); // (0 + 20) / 2
    expect(rows[2]).toMatchObject({ medianReferenceKloc: null, differencePp: 0 });
  });
});
