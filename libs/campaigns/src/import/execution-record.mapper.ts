import type { ExecutionRecord } from '#libs/contracts';
import type { ExecutionEntity } from '../entities/index.js';

/**
 * An execution with a result, back in the execution record format (what an
 * export writes and what the import round trip is checked against); null
 * while it has no result.
 */
export function executionToRecord(row: ExecutionEntity): ExecutionRecord | null {
  if (row.outcome === null || row.agents === null) return null;
  return {
    agent: row.agentName,
    model: row.model,
    benchmark: row.benchmarkKey,
    suite: row.suiteKey,
    task: row.taskKey,
    difficulty: row.difficulty,
    mode: row.mode,
    repetition: row.repetition,
    outcome: row.outcome,
    testsPassed: row.testsPassed ?? 0,
    testsTotal: row.testsTotal ?? 0,
    resolved: row.resolved ?? false,
    wallSeconds: row.wallSeconds ?? 0,
    shellCalls: row.shellCalls ?? 0,
    usage: {
      inputTokens: row.inputTokens ?? 0,
      cacheReadTokens: row.cacheReadTokens ?? 0,
      cacheWriteTokens: row.cacheWriteTokens ?? 0,
      outputTokens: row.outputTokens ?? 0,
      reasoningTokens: row.reasoningTokens ?? 0,
    },
    costUsd: (row.costMicros ?? 0) / 1e6,
    referenceKloc: row.referenceKloc,
    agents: row.agents.map((a) => ({ id: a.id, parentId: a.parentId, start: a.start, end: a.end })),
  };
}
