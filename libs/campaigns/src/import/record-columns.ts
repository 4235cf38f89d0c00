import { isoToEpochMs, type ExecutionRecord } from '#libs/contracts';
import { createHash } from 'node:crypto';
import type { ImportLineError } from './import-summary.js';

/** The result columns of one execution, as the batch UPDATE binds them. */
export interface ResultColumns {
  outcome: 'completed' | 'infra_failed';
  testsPassed: number;
  testsTotal: number;
  resolved: boolean;
  wallSeconds: number;
  shellCalls: number;
  inputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  outputTokens: number;
  reasoningTokens: number;
  costMicros: number;
  referenceKloc: number | null;
  /** JSON text of the agent spans (jsonb). */
  agents: string;
  /** The earliest agent start and the latest agent end, as written in the record (keeps sub-millisecond digits). */
  startedAt: string;
  finishedAt: string;
  recordHash: string;
}

const INT4_MAX = 2_147_483_647;
// NUL cannot be stored in Postgres text or jsonb, and jsonb refuses lone surrogates: a record carrying
// either would fail its whole batch, so it is rejected on its own line first.
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * JSON with object keys sorted at every level: two records that differ only
 * in key order (or in an absent versus null referenceKloc) hash the same.
 */
function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** sha256 of the record's canonical JSON: equal hashes mean re-importing the line changes nothing. */
export function recordHash(record: ExecutionRecord): string {
  return createHash('sha256')
    .update(canonicalJson({ ...record, referenceKloc: record.referenceKloc ?? null }))
    .digest('hex');
}

/**
 * The columns a record writes, or the problems that keep it out of the
 * database although the record schema accepts it (integers wider than the
 * columns, a cost too large to count in micro-dollars, characters Postgres
 * cannot store).
 */
export function resultColumns(record: ExecutionRecord, line: number): ResultColumns | ImportLineError[] {
  const errors: ImportLineError[] = [];
  for (const field of ['testsPassed', 'testsTotal', 'shellCalls'] as const) {
    if (record[field] > INT4_MAX) errors.push({ line, field, reason: `expected at most ${INT4_MAX}, received ${record[field]}` });
  }
  const costMicros = Math.round(record.costUsd * 1e6);
  if (!Number.isSafeInteger(costMicros)) {
    errors.push({ line, field: 'costUsd', reason: `expected at most ${Math.floor(Number.MAX_SAFE_INTEGER / 1e6)} dollars, received ${record.costUsd}` });
  }
  record.agents.forEach((agent, i) => {
    if (UNSTORABLE.test(agent.id)) errors.push({ line, field: `agents[${i}].id`, reason: 'expected text without NUL characters or unpaired surrogates' });
    if (agent.parentId !== null && UNSTORABLE.test(agent.parentId)) {
      errors.push({ line, field: `agents[${i}].parentId`, reason: 'expected text without NUL characters or unpaired surrogates' });
    }
  });
  if (errors.length) return errors;

  let first = record.agents[0]!;
  let last = record.agents[0]!;
  let firstMs = isoToEpochMs(first.start);
  let lastMs = isoToEpochMs(last.end);
  for (const agent of record.agents) {
    const start = isoToEpochMs(agent.start);
    const end = isoToEpochMs(agent.end);
    if (start < firstMs) [first, firstMs] = [agent, start];
    if (end > lastMs) [last, lastMs] = [agent, end];
  }
  const { usage } = record;
  return {
    outcome: record.outcome,
    testsPassed: record.testsPassed,
    testsTotal: record.testsTotal,
    resolved: record.resolved,
    wallSeconds: record.wallSeconds,
    shellCalls: record.shellCalls,
    inputTokens: usage.inputTokens,
    cacheReadTokens: usage.cacheReadTokens,
    cacheWriteTokens: usage.cacheWriteTokens,
    outputTokens: usage.outputTokens,
    reasoningTokens: usage.reasoningTokens,
    costMicros,
    referenceKloc: record.referenceKloc ?? null,
    agents: JSON.stringify(record.agents.map((a) => ({ id: a.id, parentId: a.parentId, start: a.start, end: a.end }))),
    startedAt: first.start,
    finishedAt: last.end,
    recordHash: recordHash(record),
  };
}
