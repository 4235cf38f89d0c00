import { describe, expect, it } from 'vitest';
import { toMetricsExecution } from './execution-record.mapper.js';
import { ExecutionRecordParser, parseExecutionRecords } from './execution-record.parser.js';
import { executionRecordSchema } from './execution-record.schema.js';
import { isoToEpochMs } from './iso-time.util.js';

const valid = {
  agent: 'codex',
  model: 'gpt-5',
  benchmark: 'repo-rebuild',
  suite: 'python',
  task: 'httpx-core',
  difficulty: 'medium',
  mode: 'concurrent',
  repetition: 0,
  outcome: 'completed',
  testsPassed: 42,
  testsTotal: 50,
  resolved: false,
  wallSeconds: 1830.5,
  shellCalls: 211,
  usage: { inputTokens: 5_200_000, cacheReadTokens: 4_100_000, cacheWriteTokens: 0, outputTokens: 91_000, reasoningTokens: 60_000 },
  costUsd: 3.87,
  referenceKloc: 12.4,
  agents: [
    { id: 'main', parentId: null, start: '2025-03-01T10:00:00Z', end: '2025-03-01T10:30:30.5Z' },
    { id: 'sub-1', parentId: 'main', start: '2025-03-01T10:02:00Z', end: '2025-03-01T10:10:00Z' },
    { id: 'sub-2', parentId: 'sub-1', start: '2025-03-01T10:05:00.000250Z', end: '2025-03-01T10:12:00+00:00' },
  ],
};

type Json = Record<string, unknown>;
const line = (patch: (record: Json) => void = () => {}): string => {
  const record = structuredClone(valid) as Json;
  patch(record);
  return JSON.stringify(record);
};

describe('executionRecordSchema', () => {
  it('accepts the documented example, with or without referenceKloc', () => {
    expect(executionRecordSchema.safeParse(valid).success).toBe(true);
    const { referenceKloc: _omitted, ...withoutSize } = valid;
    expect(executionRecordSchema.safeParse(withoutSize).success).toBe(true);
    expect(executionRecordSchema.safeParse({ ...valid, referenceKloc: null }).success).toBe(true);
  });
});

describe('parseExecutionRecords', () => {
  it('keeps the valid lines and reports each bad one with line, field and reason', () => {
    const text = [
      line(),
      line((r) => ((r.usage as Json).outputTokens = '91000')),
      '',
      line((r) => (r.task = 'other-task')),
      '{"agent": "codex", ',
    ].join('\n');
    const result = parseExecutionRecords(text);
    expect(result.records.map((r) => r.task)).toEqual(['httpx-core', 'other-task']);
    expect(result.lines).toEqual([1, 4]);
    expect(result.errors).toHaveLength(2);
    expect(result.errors[0]).toEqual({ line: 2, field: 'usage.outputTokens', reason: 'expected number, received string "91000"' });
    expect(result.errors[1]).toMatchObject({ line: 5, field: '(line)' });
    expect(result.errors[1]!.reason).toMatch(/^expected one JSON object, received invalid JSON/);
  });

  const cases: Array<[string, (r: Json) => void, string, RegExp]> = [
    ['a missing field', (r) => delete r.testsTotal, 'testsTotal', /required field missing \(expected number\)/],
    ['an unknown field', (r) => ((r.usage as Json).cachedTokens = 5), 'usage.cachedTokens', /unknown field/],
    ['a typo at top level', (r) => (r.testPassed = 3), 'testPassed', /unknown field/],
    ['a bad difficulty', (r) => (r.difficulty = 'extreme'), 'difficulty', /expected one of "easy", "medium", "hard", received string "extreme"/],
    ['a bad outcome', (r) => (r.outcome = 'failed'), 'outcome', /"completed", "infra_failed"/],
    ['a negative count', (r) => (r.shellCalls = -1), 'shellCalls', /expected a value >= 0, received number -1/],
    ['a fractional count', (r) => (r.repetition = 1.5), 'repetition', /expected int, received number 1.5/],
    ['a time without zone', (r) => ((r.agents as Json[])[1]!.start = '2025-03-01 10:02'), 'agents[1].start', /ISO-8601 date-time/],
    ['an empty agent list', (r) => (r.agents = []), 'agents', /at least 1 item/],
    ['more passed than total', (r) => (r.testsPassed = 51), 'testsPassed', /expected at most testsTotal \(50\), received 51/],
    ['cache beyond input', (r) => ((r.usage as Json).cacheReadTokens = 6_000_000), 'usage.cacheReadTokens', /which include them/],
    ['reasoning beyond output', (r) => ((r.usage as Json).reasoningTokens = 100_000), 'usage.reasoningTokens', /at most outputTokens/],
    ['two main agents', (r) => ((r.agents as Json[])[1]!.parentId = null), 'agents', /exactly one main agent \(parentId null\), received 2/],
    ['an unknown parent', (r) => ((r.agents as Json[])[2]!.parentId = 'ghost'), 'agents[2].parentId', /received "ghost"/],
    ['an end before the start', (r) => ((r.agents as Json[])[1]!.end = '2025-03-01T10:01:00Z'), 'agents[1].end', /at or after start/],
    ['not an object', (r) => Object.keys(r).forEach((k) => delete r[k]), 'agent', /required field missing/],
  ];
  it.each(cases)('reports %s', (_label, patch, field, reason) => {
    const result = parseExecutionRecords([line(), line(patch)]);
    expect(result.records).toHaveLength(1);
    const error = result.errors.find((e) => e.field === field);
    expect(error, JSON.stringify(result.errors)).toBeDefined();
    expect(error!.line).toBe(2);
    expect(error!.reason).toMatch(reason);
  });

  it('rejects a JSON value that is not an object', () => {
    expect(parseExecutionRecords('[1, 2]').errors).toEqual([{ line: 1, field: '(record)', reason: 'expected object, received an array' }]);
  });

  it('rejects a later duplicate of the same execution identity', () => {
    const result = parseExecutionRecords([line(), line(), line((r) => (r.mode = 'sequential'))].join('\r\n'));
    expect(result.records).toHaveLength(2);
    expect(result.errors).toEqual([
      { line: 2, field: '(record)', reason: 'expected one execution per agent, benchmark, suite, task, mode and repetition, received a duplicate of line 1' },
    ]);
  });

  it('parses incrementally with the same line numbers', () => {
    const parser = new ExecutionRecordParser();
    expect(parser.push('')).toBeNull();
    expect(parser.push(line())?.task).toBe('httpx-core');
    expect(parser.push('nope')).toBeNull();
    expect(parser.result().errors[0]!.line).toBe(3);
  });
});

describe('toMetricsExecution', () => {
  it('maps usage to token counts and times to epoch milliseconds, keeping sub-millisecond digits', () => {
    const record = parseExecutionRecords(line()).records[0]!;
    const execution = toMetricsExecution(record);
    const t0 = Date.UTC(2025, 2, 1, 10, 0, 0);
    expect(execution.tokens).toEqual({ input: 5_200_000, cacheRead: 4_100_000, cacheWrite: 0, output: 91_000, reasoning: 60_000 });
    expect(execution.agents).toEqual([
      { id: 'main', parentId: null, start: t0, end: t0 + 1_830_500 },
      { id: 'sub-1', parentId: 'main', start: t0 + 120_000, end: t0 + 600_000 },
      { id: 'sub-2', parentId: 'sub-1', start: t0 + 300_000.25, end: t0 + 720_000 },
    ]);
    expect(execution.referenceKloc).toBe(12.4);
  });

  it('reads time zone offsets', () => {
    expect(isoToEpochMs('2025-03-01T12:00:00+02:00')).toBe(Date.UTC(2025, 2, 1, 10));
    expect(Number.isNaN(isoToEpochMs('yesterday'))).toBe(true);
  });
});
