import type { Execution, SuccessRule } from './execution.types.js';
import { ratioOrNull } from './numeric.util.js';
import { totalTokens } from './usage.js';
import { wilsonInterval, type Interval } from './wilson.js';

/** Resolved for Task pass: the grader said so and the execution actually ran. */
export function isResolved(execution: Execution): boolean {
  return execution.outcome === 'completed' && execution.resolved;
}

/** testsPassed / testsTotal; 0 for an infra_failed execution or one with testsTotal = 0. */
export function executionTestPass(execution: Execution): number {
  if (execution.outcome !== 'completed' || execution.testsTotal <= 0) return 0;
  return execution.testsPassed / execution.testsTotal;
}

/** Success under a benchmark's rule; used only by views that say "success" (unique successes). */
export function isSuccess(execution: Execution, rule: SuccessRule = 'resolved'): boolean {
  return rule === 'testPassAboveZero' ? executionTestPass(execution) > 0 : isResolved(execution);
}

export interface OutcomeSummary {
  /** Every planned execution of the group: the denominator of both pass rates. */
  n: number;
  resolved: number;
  /** resolved / n; null for an empty group. */
  taskPass: number | null;
  /** 95% Wilson score interval of taskPass. */
  taskPassInterval: Interval | null;
  /** Mean over executions of testsPassed / testsTotal (counted-as-zero ones included). */
  testPass: number | null;
  /** Executions that the platform could not run: counted as 0 in both rates. */
  infraFailed: number;
  /** Completed executions whose grader reported testsTotal = 0: counted as 0 in both rates. */
  noTests: number;
  /** Means over all executions of the group. */
  shellCalls: number | null;
  minutes: number | null;
  tokensMillions: number | null;
  costUsd: number | null;
  /** Total tokens of the group / resolved count; null when none resolved. */
  tokensPerSolved: number | null;
  costPerSolved: number | null;
}

/** Outcome metrics of one group of executions (e.g. one agent x benchmark x mode). */
export function summariseOutcomes(executions: readonly Execution[]): OutcomeSummary {
  const n = executions.length;
  let resolved = 0;
  let testPassSum = 0;
  let infraFailed = 0;
  let noTests = 0;
  let shellCalls = 0;
  let seconds = 0;
  let tokens = 0;
  let cost = 0;
  for (const execution of executions) {
    if (isResolved(execution)) resolved++;
    testPassSum += executionTestPass(execution);
    if (execution.outcome === 'infra_failed') infraFailed++;
    else if (execution.testsTotal <= 0) noTests++;
    shellCalls += execution.shellCalls;
    seconds += execution.wallSeconds;
    tokens += totalTokens(execution.tokens);
    cost += execution.costUsd;
  }
  return {
    n,
    resolved,
    taskPass: ratioOrNull(resolved, n),
    taskPassInterval: wilsonInterval(resolved, n),
    testPass: ratioOrNull(testPassSum, n),
    infraFailed,
    noTests,
    shellCalls: ratioOrNull(shellCalls, n),
    minutes: ratioOrNull(seconds / 60, n),
    tokensMillions: ratioOrNull(tokens / 1e6, n),
    costUsd: ratioOrNull(cost, n),
    tokensPerSolved: ratioOrNull(tokens, resolved),
    costPerSolved: ratioOrNull(cost, resolved),
  };
}
