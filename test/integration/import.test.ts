import { ExecutionEntity } from '#libs/campaigns';
import { DomainException } from '#libs/common';
import { Role, type Principal } from '#libs/identity';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImportResolver } from '../../apps/api/src/campaigns/import/import.resolver.js';
import { ExecutionImportService, executionToRecord } from '#libs/campaigns';
import { codeOf, createKey, signUp, startTestApi, type TestApi } from '../support/api.js';
import { createCampaignFixture, jsonl, recordFor, type CampaignFixture, type FixtureUnit } from '../support/campaign-fixture.js';

interface Summary {
  campaignId: string;
  linesRead: number;
  inserted: number;
  updated: number;
  unchanged: number;
  rejected: number;
  errors: { line: number; field: string; reason: string }[];
}

const IMPORT_MUTATION = `mutation($c: ID!, $j: String!) {
  importExecutions(campaignId: $c, jsonl: $j) { campaignId linesRead inserted updated unchanged rejected errors { line field reason } }
}`;

describe('import of execution records', () => {
  let api: TestApi;
  let orgA: Awaited<ReturnType<typeof signUp>>;
  let memberKey: string;
  let viewerKey: string;
  let orgBKey: string;
  let campaign: CampaignFixture;

  beforeAll(async () => {
    api = await startTestApi();
    orgA = await signUp(api, 'alice');
    memberKey = (await createKey(api, orgA.token, 'MEMBER')).key;
    viewerKey = (await createKey(api, orgA.token, 'VIEWER')).key;
    const orgB = await signUp(api, 'bob');
    orgBKey = (await createKey(api, orgB.token, 'ADMIN')).key;
    campaign = await createCampaignFixture(api.db.dataSource, { orgId: orgA.orgId });
  });
  afterAll(() => api.close());

  async function rest(campaignId: string, body: string | ReadableStream<Uint8Array>, key: string | null = memberKey, contentType = 'application/x-ndjson') {
    const res = await fetch(`${api.url}/v1/campaigns/${campaignId}/import`, {
      method: 'POST',
      headers: { 'content-type': contentType, ...(key ? { authorization: `Bearer ${key}` } : {}) },
      body,
      ...(typeof body === 'string' ? {} : { duplex: 'half' }),
    } as RequestInit);
    return { status: res.status, body: (await res.json()) as Summary & { error?: { code: string; message: string; field?: string } } };
  }

  async function rows(campaignId: string): Promise<ExecutionEntity[]> {
    return api.db.dataSource.getRepository(ExecutionEntity).find({ where: { campaignId }, order: { id: 'ASC' } });
  }

  function unitOf(fixture: CampaignFixture, match: Partial<FixtureUnit>): FixtureUnit {
    const unit = fixture.units.find((u) => Object.entries(match).every(([k, v]) => u[k as keyof FixtureUnit] === v));
    if (!unit) throw new Error(`no unit ${JSON.stringify(match)}`);
    return unit;
  }

  const allRecords = () => campaign.units.map((u) => recordFor(u));

  it('imports a file over REST: every planned execution gets its result, and the rows convert back to the same records', async () => {
    const records = allRecords();
    expect(records).toHaveLength(24);
    const res = await rest(campaign.campaignId, jsonl(records));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ campaignId: campaign.campaignId, linesRead: 24, inserted: 0, updated: 24, unchanged: 0, rejected: 0, errors: [] });

    const stored = await rows(campaign.campaignId);
    expect(stored.every((r) => r.status === 'completed' && r.source === 'import' && r.recordHash !== null)).toBe(true);
    const byId = new Map(campaign.units.map((u, i) => [u.id, records[i]!]));
    for (const row of stored) expect(executionToRecord(row)).toEqual(byId.get(row.id));

    const concurrent = stored.find((r) => r.mode === 'concurrent')!;
    expect(concurrent.costMicros).toBe(Math.round(byId.get(concurrent.id)!.costUsd * 1e6));
    // started_at / finished_at: earliest agent start and latest agent end, whatever their offsets.
    const [times] = await api.db.dataSource.query(
      `SELECT to_char(started_at AT TIME ZONE 'UTC', 'HH24:MI:SS.US') AS s, to_char(finished_at AT TIME ZONE 'UTC', 'HH24:MI:SS.US') AS f FROM executions WHERE id = $1`,
      [concurrent.id],
    );
    expect(times).toEqual({ s: '09:59:59.500000', f: '10:41:00.000250' });
    // Every execution has a result now: the imported campaign is complete, like a run one.
    const [status] = await api.db.dataSource.query('SELECT status FROM campaigns WHERE id = $1', [campaign.campaignId]);
    expect(status).toEqual({ status: 'completed' });
  });

  it('re-importing the same file is a no-op: everything unchanged, no row touched', async () => {
    const before = (await rows(campaign.campaignId)).map((r) => [r.id, r.updatedAt.getTime(), r.recordHash]);
    const res = await rest(campaign.campaignId, jsonl(allRecords()));
    expect(res.body).toMatchObject({ linesRead: 24, updated: 0, unchanged: 24, rejected: 0 });
    const after = (await rows(campaign.campaignId)).map((r) => [r.id, r.updatedAt.getTime(), r.recordHash]);
    expect(after).toEqual(before);
  });

  it('an updated line updates its execution and only it; key order and an absent referenceKloc do not count as changes', async () => {
    const records = allRecords();
    const target = unitOf(campaign, { agent: 'claude', mode: 'sequential', task: 'flask', repetition: 1 });
    const index = campaign.units.indexOf(target);
    records[index] = recordFor(target, 5, { resolved: true, testsPassed: 99, testsTotal: 99 });
    // The same record with its keys in another order.
    const reordered = Object.fromEntries(Object.entries(records[0]!).reverse());
    const before = new Map((await rows(campaign.campaignId)).map((r) => [r.id, r.updatedAt.getTime()]));
    const res = await rest(campaign.campaignId, jsonl([reordered, ...records.slice(1)]));
    expect(res.body).toMatchObject({ updated: 1, unchanged: 23, rejected: 0 });
    for (const row of await rows(campaign.campaignId)) {
      if (row.id === target.id) {
        expect(row).toMatchObject({ testsPassed: 99, testsTotal: 99, resolved: true });
        expect(row.updatedAt.getTime()).toBeGreaterThan(before.get(row.id)!);
        expect(executionToRecord(row)).toEqual(records[index]);
      } else {
        expect(row.updatedAt.getTime()).toBe(before.get(row.id));
      }
    }
  });

  it('a file with bad lines keeps the good ones and reports each bad line with its number and field', async () => {
    const fixture = await createCampaignFixture(api.db.dataSource, { orgId: orgA.orgId, repetitions: 2 });
    const u = (m: Partial<FixtureUnit>) => unitOf(fixture, m);
    const good1 = u({ agent: 'codex', mode: 'concurrent', task: 'flask', repetition: 0 });
    const good2 = u({ agent: 'codex', mode: 'sequential', task: 'click', repetition: 1 });
    const good3 = u({ agent: 'claude', mode: 'concurrent', task: 'express', repetition: 0 });
    const base = recordFor(u({ agent: 'claude', mode: 'sequential', task: 'click', repetition: 0 }));
    const lines = [
      recordFor(good1), // 1
      '{"agent": "codex", "model": ', // 2 malformed JSON
      { ...base, testsTotal: '88' }, // 3 wrong type
      { ...base, task: 'foo' }, // 4 unknown task
      { ...base, mode: 'turbo' }, // 5 wrong mode
      { ...base, repetition: 3 }, // 6 repetition out of range
      '', // 7 blank: ignored
      recordFor(good2), // 8
      { ...base, difficulty: 'hard' }, // 9 difficulty differs from the task's
      { ...base, agent: 'gemini' }, // 10 unknown agent
      { ...base, benchmark: 'other-bench' }, // 11 unknown benchmark
      { ...base, suite: 'rust' }, // 12 unknown suite
      { ...base, model: 'gpt-4' }, // 13 model differs from the agent's
      { ...base, testsPassed: 3_000_000_000, testsTotal: 3_000_000_000 }, // 14 wider than the column
      { ...base, usage: { ...base.usage, cachedTokens: 1 } }, // 15 unknown field
      recordFor(good3), // 16
    ];
    const res = await rest(fixture.campaignId, jsonl(lines));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ linesRead: 16, updated: 3, unchanged: 0, rejected: 12 });
    const fields = res.body.errors.map((e) => `${e.line} ${e.field}`);
    expect(fields).toEqual([
      '2 (line)',
      '3 testsTotal',
      '4 task',
      '5 mode',
      '6 repetition',
      '9 difficulty',
      '10 agent',
      '11 benchmark',
      '12 suite',
      '13 model',
      '14 testsPassed',
      '14 testsTotal',
      '15 usage.cachedTokens',
    ]);
    const reason = (line: number) => res.body.errors.find((e) => e.line === line)!.reason;
    expect(reason(3)).toBe('expected number, received string "88"');
    expect(reason(4)).toBe('"foo" is not in this campaign\'s sample for benchmark repo-rebuild, suite python');
    expect(reason(5)).toBe('"turbo" is not one of this campaign\'s modes (concurrent, sequential)');
    expect(reason(6)).toBe("3 is outside this campaign's repetitions (0..1)");
    expect(reason(9)).toBe('expected "easy" (the difficulty group of task click in benchmark repo-rebuild), received "hard"');
    expect(reason(10)).toBe('"gemini" is not one of this campaign\'s agents (claude, codex)');

    const stored = await rows(fixture.campaignId);
    const filled = stored.filter((r) => r.recordHash !== null).map((r) => r.id).sort();
    expect(filled).toEqual([good1.id, good2.id, good3.id].sort());
    expect(stored.filter((r) => r.recordHash === null).every((r) => r.status === 'queued' && r.outcome === null)).toBe(true);
  });

  it('a value Postgres refuses costs only its own line: the rest of the batch is written', async () => {
    const fixture = await createCampaignFixture(api.db.dataSource, { orgId: orgA.orgId, repetitions: 1 });
    const [bad, ...good] = fixture.units;
    // Valid ISO-8601 for the record schema, but Postgres has no year 0.
    const yearZero = recordFor(bad!, 0, { agents: [{ id: 'main', parentId: null, start: '0000-01-01T00:00:00Z', end: '2025-06-01T10:00:00Z' }] });
    const res = await rest(fixture.campaignId, jsonl([...good.map((u) => recordFor(u)), yearZero]));
    expect(res.body).toMatchObject({ updated: good.length, rejected: 1 });
    expect(res.body.errors).toEqual([{ line: good.length + 1, field: '(record)', reason: expect.stringMatching(/^the database refused the record: /) }]);
    const stored = await rows(fixture.campaignId);
    expect(stored.filter((r) => r.recordHash !== null)).toHaveLength(good.length);
    expect(stored.find((r) => r.id === bad!.id)).toMatchObject({ status: 'queued', recordHash: null });
    // Re-importing it is still refused (its hash was not remembered as written).
    const again = await rest(fixture.campaignId, jsonl([yearZero]));
    expect(again.body).toMatchObject({ unchanged: 0, rejected: 1 });
  });

  it('a line repeated in one file: the last one wins', async () => {
    const fixture = await createCampaignFixture(api.db.dataSource, { orgId: orgA.orgId, repetitions: 1 });
    const unit = fixture.units[0]!;
    const first = recordFor(unit, 1);
    const last = recordFor(unit, 2, { outcome: 'infra_failed' });
    const res = await rest(fixture.campaignId, jsonl([first, recordFor(fixture.units[1]!), last]));
    expect(res.body).toMatchObject({ updated: 3, rejected: 0 });
    const [row] = await api.db.dataSource.getRepository(ExecutionEntity).findBy({ id: unit.id });
    expect(executionToRecord(row!)).toEqual(last);
    expect(row!.status).toBe('infra_failed');
  });

  it('streams a chunked body whose chunks split lines and multi-byte characters', async () => {
    const fixture = await createCampaignFixture(api.db.dataSource, { orgId: orgA.orgId, repetitions: 1 });
    const records = fixture.units.map((u) => recordFor(u, 0, { agents: [{ id: 'maïn-агент', parentId: null, start: '2025-06-01T10:00:00Z', end: '2025-06-01T10:30:00Z' }] }));
    const bytes = new TextEncoder().encode(jsonl(records).replace(/\n/g, '\r\n'));
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 7) controller.enqueue(bytes.slice(i, i + 7));
        controller.close();
      },
    });
    const res = await rest(fixture.campaignId, body);
    expect(res.body).toMatchObject({ linesRead: records.length, updated: records.length, rejected: 0 });
    const stored = await rows(fixture.campaignId);
    expect(stored.map((r) => r.agents![0]!.id)).toEqual(stored.map(() => 'maïn-агент'));
  });

  it('imports over GraphQL, with the same per-line errors', async () => {
    const fixture = await createCampaignFixture(api.db.dataSource, { orgId: orgA.orgId, repetitions: 1 });
    const records = fixture.units.map((u) => recordFor(u));
    const text = jsonl([...records, { ...records[0]!, mode: 'x' }]);
    const res = await api.gql<{ importExecutions: Summary }>(IMPORT_MUTATION, { c: fixture.campaignId, j: text }, memberKey);
    expect(res.errors).toBeUndefined();
    expect(res.data!.importExecutions).toEqual({
      campaignId: fixture.campaignId,
      linesRead: records.length + 1,
      inserted: 0,
      updated: records.length,
      unchanged: 0,
      rejected: 1,
      errors: [{ line: records.length + 1, field: 'mode', reason: '"x" is not one of this campaign\'s modes (concurrent, sequential)' }],
    });
    const again = await api.gql<{ importExecutions: Summary }>(IMPORT_MUTATION, { c: fixture.campaignId, j: jsonl(records) }, memberKey);
    expect(again.data!.importExecutions).toMatchObject({ updated: 0, unchanged: records.length });
    for (const row of await rows(fixture.campaignId)) expect(executionToRecord(row)).toEqual(records[fixture.units.findIndex((u) => u.id === row.id)]);
  });

  it('GraphQL refuses jsonl over 5 MB with BAD_USER_INPUT naming jsonl', async () => {
    const principal: Principal = { kind: 'api_key', orgId: orgA.orgId, role: Role.MEMBER, userId: null, apiKeyId: null, sessionId: null, platformAdmin: false };
    const big = 'x'.repeat(5 * 1024 * 1024 + 1);
    const error = await api.app.get(ImportResolver).importExecutions(principal, campaign.campaignId, big).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainException);
    expect(error).toMatchObject({ code: 'BAD_USER_INPUT', field: 'jsonl' });
    expect((error as Error).message).toMatch(/^jsonl: expected at most 5242880 bytes \(5 MB\), got 5242881/);
  });

  it('cross-tenant: org B importing into org A\'s campaign gets NOT_FOUND, like a missing id, and nothing changes', async () => {
    const before = await rows(campaign.campaignId);
    const records = campaign.units.map((u) => recordFor(u, 9));
    const other = await rest(campaign.campaignId, jsonl(records), orgBKey);
    const missingId = '00000000-0000-4000-8000-000000000000';
    const missing = await rest(missingId, jsonl(records), orgBKey);
    expect(other.status).toBe(404);
    expect(other.body.error!.code).toBe('NOT_FOUND');
    expect(other.body.error!.message.replace(campaign.campaignId, 'X')).toBe(missing.body.error!.message.replace(missingId, 'X'));
    const notUuid = await rest('not-a-uuid', jsonl(records), orgBKey);
    expect(notUuid.status).toBe(404);

    const gql = await api.gql(IMPORT_MUTATION, { c: campaign.campaignId, j: jsonl(records) }, orgBKey);
    expect(codeOf(gql)).toBe('NOT_FOUND');
    expect(await rows(campaign.campaignId)).toEqual(before);
  });

  it('a viewer key gets FORBIDDEN and no credential gets 401; nothing changes', async () => {
    const before = await rows(campaign.campaignId);
    const records = campaign.units.map((u) => recordFor(u, 9));
    const viewer = await rest(campaign.campaignId, jsonl(records), viewerKey);
    expect(viewer.status).toBe(403);
    expect(viewer.body.error!.code).toBe('FORBIDDEN');
    const gql = await api.gql(IMPORT_MUTATION, { c: campaign.campaignId, j: jsonl(records) }, viewerKey);
    expect(codeOf(gql)).toBe('FORBIDDEN');
    const anonymous = await rest(campaign.campaignId, jsonl(records), null);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error!.code).toBe('UNAUTHENTICATED');
    expect(await rows(campaign.campaignId)).toEqual(before);
  });

  it('a running (or dispatching) execution is not overwritten', async () => {
    const fixture = await createCampaignFixture(api.db.dataSource, { orgId: orgA.orgId, repetitions: 1 });
    const [running, dispatching, cancelled] = fixture.units;
    await api.db.dataSource.query(`UPDATE executions SET status = 'running' WHERE id = $1`, [running!.id]);
    await api.db.dataSource.query(`UPDATE executions SET status = 'dispatching' WHERE id = $1`, [dispatching!.id]);
    await api.db.dataSource.query(`UPDATE executions SET status = 'cancelled' WHERE id = $1`, [cancelled!.id]);
    const res = await rest(fixture.campaignId, jsonl([recordFor(running!), recordFor(dispatching!), recordFor(cancelled!)]));
    expect(res.body).toMatchObject({ updated: 1, rejected: 2 });
    expect(res.body.errors).toEqual([
      { line: 1, field: '(record)', reason: 'execution is running; cancel it before importing over it' },
      { line: 2, field: '(record)', reason: 'execution is running; cancel it before importing over it' },
    ]);
    const stored = new Map((await rows(fixture.campaignId)).map((r) => [r.id, r]));
    expect(stored.get(running!.id)).toMatchObject({ status: 'running', outcome: null, recordHash: null });
    expect(stored.get(dispatching!.id)).toMatchObject({ status: 'dispatching', outcome: null, recordHash: null });
    expect(stored.get(cancelled!.id)).toMatchObject({ status: 'completed', source: 'import' });
  });

  it('an execution that starts running while the import reads is not overwritten either (the UPDATE re-checks)', async () => {
    const fixture = await createCampaignFixture(api.db.dataSource, { orgId: orgA.orgId, repetitions: 1 });
    const [started, other] = fixture.units;
    const principal: Principal = { kind: 'api_key', orgId: orgA.orgId, role: Role.MEMBER, userId: null, apiKeyId: null, sessionId: null, platformAdmin: false };
    const ds = api.db.dataSource;
    // The service has loaded the campaign's executions (queued) before it asks for the first line.
    async function* lines(): AsyncGenerator<string> {
      await ds.query(`UPDATE executions SET status = 'running' WHERE id = $1`, [started!.id]);
      yield JSON.stringify(recordFor(started!));
      yield JSON.stringify(recordFor(other!));
    }
    const progress: number[] = [];
    const summary = await api.app.get(ExecutionImportService).importRecords(principal, fixture.campaignId, lines(), { onProgress: (n) => progress.push(n) });
    expect(summary).toMatchObject({ linesRead: 2, updated: 1, unchanged: 0, rejected: 1 });
    expect(summary.errors).toEqual([{ line: 1, field: '(record)', reason: 'execution is running; cancel it before importing over it' }]);
    expect(progress.at(-1)).toBe(2);
    const [row] = await ds.getRepository(ExecutionEntity).findBy({ id: started!.id });
    expect(row).toMatchObject({ status: 'running', outcome: null, recordHash: null });
  });

  it('REST refuses a body that is not NDJSON (400 naming content-type) and one over 1 GB (413)', async () => {
    const wrongType = await rest(campaign.campaignId, 'x', memberKey, 'text/csv');
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error).toMatchObject({ code: 'BAD_USER_INPUT', field: 'content-type' });

    const tooBig = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const url = new URL(`${api.url}/v1/campaigns/${campaign.campaignId}/import`);
      const req = request(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-ndjson', 'content-length': String(2 * 1024 ** 3), authorization: `Bearer ${memberKey}` },
      });
      req.on('response', (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => {
          resolve({ status: res.statusCode!, body });
          req.destroy();
        });
      });
      req.on('error', reject);
      req.write('{}\n');
    });
    expect(tooBig.status).toBe(413);
    expect(JSON.parse(tooBig.body).error.code).toBe('PAYLOAD_TOO_LARGE');
  });
});
