import { describe, expect, it } from 'vitest';
import { makeExecution } from '../../../test/fixtures/metrics/execution.factory.js';
import { executionTestPass, isSuccess, summariseOutcomes } from './outcome.metrics.js';

describe('summariseOutcomes', () => {
  const group = [
    makeExecution({ resolved: true, testsPassed: 10, testsTotal: 10, wallSeconds: 600, shellCalls: 10, costUsd: 2 }),
    makeExecution({ testsPassed: 5, testsTotal: 10, wallSeconds: 1200, shellCalls: 30, costUsd: 4 }),
    // the platform could not run it: 0 in both rates, still in the denominator
    makeExecution({ outcome: 'infra_failed', resolved: true, testsPassed: 3, testsTotal: 10, wallSeconds: 0, shellCalls: 0, costUsd: 0 }),
    // the grader found no tests: 0 in both rates
    makeExecution({ testsPassed: 0, testsTotal: 0, wallSeconds: 1800, shellCalls: 20, costUsd: 6 }),
  ];

  it('counts infra failures and testsTotal = 0 as 0 over every planned execution, and reports them', () => {
    const summary = summariseOutcomes(group);
    expect(summary).toMatchObject({ n: 4, resolved: 1, taskPass: 0.25, testPass: 1.5 / 4, infraFailed: 1, noTests: 1 });
  });

  it('takes means over executions: shell calls, minutes, tokens (millions), cost', () => {
    const summary = summariseOutcomes(group);
    expect(summary.shellCalls).toBe(15);
    expect(summary.minutes).toBe(15);
    expect(summary.tokensMillions).toBeCloseTo(1.05, 12);
    expect(summary.costUsd).toBe(3);
    expect(summary.tokensPerSolved).toBe(4 * 1_050_000);
    expect(summary.costPerSolved).toBe(12);
  });

  it('gives a Wilson interval of task pass', () => {
    const interval = summariseOutcomes(group).taskPassInterval!;
    expect(interval.lower).toBeLessThan(0.25);
    expect(interval.upper).toBeGreaterThan(0.25);
  });

  it('gives null, never NaN, for an empty group and per-solved values when none resolved', () => {
    const empty = summariseOutcomes([]);
    expect(empty).toMatchObject({ n: 0, taskPass: null, testPass: null, minutes: null, costUsd: null, tokensPerSolved: null, taskPassInterval: null });
    expect(summariseOutcomes([makeExecution()]).costPerSolved).toBeNull();
  });
});

describe('success rule', () => {
  it('"testPassAboveZero" counts any passing test; "resolved" needs the verdict', () => {
    const partial = makeExecution({ testsPassed: 1, testsTotal: 40 });
    expect(isSuccess(partial, 'testPassAboveZero')).toBe(true);
    expect(isSuccess(partial, 'resolved')).toBe(false);
    expect(isSuccess(makeExecution({ outcome: 'infra_failed', testsPassed: 1 }), 'testPassAboveZero')).toBe(false);
    expect(executionTestPass(partial)).toBe(1 / 40);
  });
});
