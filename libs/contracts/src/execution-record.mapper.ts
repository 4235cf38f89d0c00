import type { Execution } from '#libs/metrics';
import type { ExecutionRecord } from './execution-record.schema.js';
import { isoToEpochMs } from './iso-time.util.js';

/** A validated execution record as the metrics library's input (times as epoch milliseconds). */
export function toMetricsExecution(record: ExecutionRecord): Execution {
  return {
    agent: record.agent,
    model: record.model,
    benchmark: record.benchmark,
    suite: record.suite,
    task: record.task,
    difficulty: record.difficulty,
    mode: record.mode,
    repetition: record.repetition,
    outcome: record.outcome,
    testsPassed: record.testsPassed,
    testsTotal: record.testsTotal,
    resolved: record.resolved,
    wallSeconds: record.wallSeconds,
    shellCalls: record.shellCalls,
    tokens: {
      input: record.usage.inputTokens,
      cacheRead: record.usage.cacheReadTokens,
      cacheWrite: record.usage.cacheWriteTokens,
      output: record.usage.outputTokens,
      reasoning: record.usage.reasoningTokens,
    },
    costUsd: record.costUsd,
    referenceKloc: record.referenceKloc ?? null,
    agents: record.agents.map((agent) => ({
      id: agent.id,
      parentId: agent.parentId,
      start: isoToEpochMs(agent.start),
      end: isoToEpochMs(agent.end),
    })),
  };
}
