import type { ExecutionRecord } from '#libs/contracts';
import { describe, expect, it } from 'vitest';
import { recordHash, resultColumns } from './record-columns.js';

const record: ExecutionRecord = {
  agent: 'codex',
  model: 'gpt-5-codex',
  benchmark: 'repo-rebuild',
  suite: 'python',
  task: 'flask',
  difficulty: 'hard',
  mode: 'concurrent',
  repetition: 0,
  outcome: 'completed',
  testsPassed: 88,
  testsTotal: 88,
  resolved: true,
  wallSeconds: 2400,
  shellCalls: 300,
  usage: { inputTokens: 22_000_000, cacheReadTokens: 17_000_000, cacheWriteTokens: 0, outputTokens: 480_000, reasoningTokens: 330_000 },
  costUsd: 9.8,
  agents: [
    { id: 'main', parentId: null, start: '2025-06-01T10:00:00Z', end: '2025-06-01T10:40:00Z' },
    { id: 'a', parentId: 'main', start: '2025-06-01T11:59:00.5+02:00', end: '2025-06-01T12:41:00.000250+02:00' },
  ],
};

describe('recordHash', () => {
  it('ignores key order and an absent versus null referenceKloc; any value change changes it', () => {
    const reordered = Object.fromEntries(Object.entries(record).reverse()) as ExecutionRecord;
    expect(recordHash(reordered)).toBe(recordHash(record));
    expect(recordHash({ ...record, referenceKloc: null })).toBe(recordHash(record));
    expect(recordHash({ ...record, referenceKloc: 0 })).not.toBe(recordHash(record));
    expect(recordHash({ ...record, usage: { ...record.usage, outputTokens: 480_001 } })).not.toBe(recordHash(record));
  });
});

describe('resultColumns', () => {
  it('takes the earliest start and the latest end as written, and counts dollars in micro-dollars', () => {
    const columns = resultColumns(record, 1);
    expect(columns).toMatchObject({ startedAt: '2025-06-01T11:59:00.5+02:00', finishedAt: '2025-06-01T12:41:00.000250+02:00', costMicros: 9_800_000, referenceKloc: null });
  });

  it('rejects what the columns cannot hold, naming the field', () => {
    expect(resultColumns({ ...record, shellCalls: 2 ** 31 }, 7)).toEqual([{ line: 7, field: 'shellCalls', reason: 'expected at most 2147483647, received 2147483648' }]);
    expect(resultColumns({ ...record, costUsd: 1e12 }, 7)).toMatchObject([{ field: 'costUsd' }]);
    const nul = resultColumns({ ...record, agents: [{ ...record.agents[0]!, id: 'ma\u0000in' }] }, 7);
    expect(nul).toMatchObject([{ field: 'agents[0].id' }]);
    expect(resultColumns({ ...record, agents: [record.agents[0]!, { ...record.agents[1]!, parentId: '\uD800' }] }, 7)).toMatchObject([{ field: 'agents[1].parentId' }]);
  });
});
