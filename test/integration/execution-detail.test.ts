import { isoToEpochMs } from '#libs/contracts';
import { claimExecutions, type StartRequest } from '#libs/engine';
import { delegationMetrics, type AgentSpan } from '#libs/metrics';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeOf, createKey, signUp, startTestApi, type GqlResult, type TestApi } from '../support/api.js';
import { createCampaignFixture, jsonl, recordFor, type CampaignFixture, type FixtureUnit } from '../support/campaign-fixture.js';
import { launchedCampaign } from '../support/engine.js';

const DETAIL = `query($id: ID!) {
  execution(id: $id) {
    id status outcome testsPassed testsTotal resolved costUsd tokens { input output }
    grade { agentEnd agentExitCode graderExitCode graderOutputTail }
    summary
    delegation { created peak overlapSeconds spanSeconds overlapRatio firstSpawnPosition firstOverlapPosition lastEndPosition neverOverlapping }
    agentTree { id parentId depth start end durationSeconds offsetSeconds }
  }
}`;

const EVENTS = `query($id: ID!, $first: Int, $after: String, $agentId: String, $kinds: [String!]) {
  execution(id: $id) {
    events(first: $first, after: $after, agentId: $agentId, kinds: $kinds) {
      totalCount
      edges { cursor node { seq eventId type agentId time data payload } }
      pageInfo { endCursor hasNextPage }
    }
  }
}`;

interface EventNode {
  seq: string;
  eventId: string;
  type: string;
  agentId: string;
  time: string;
  data: Record<string, unknown>;
  payload: string | null;
}
interface EventsPage {
  execution: { events: { totalCount: number; edges: { cursor: string; node: EventNode }[]; pageInfo: { endCursor: string | null; hasNextPage: boolean } } };
}

/** The delegation figures as the API presents them (seconds instead of milliseconds), straight from libs/metrics. */
function expectedDelegation(spans: AgentSpan[]) {
  const m = delegationMetrics(spans);
  return {
    created: m.created,
    peak: m.peak,
    overlapSeconds: m.overlapTime / 1000,
    spanSeconds: m.span / 1000,
    overlapRatio: m.overlapRatio,
    firstSpawnPosition: m.firstSpawnPosition,
    firstOverlapPosition: m.firstOverlapPosition,
    lastEndPosition: m.lastEndPosition,
    neverOverlapping: m.neverOverlapping,
  };
}

describe('execution detail', () => {
  let api: TestApi;
  let orgA: Awaited<ReturnType<typeof signUp>>;
  let orgB: Awaited<ReturnType<typeof signUp>>;
  let run: StartRequest;
  let imported: CampaignFixture;
  let publicCampaign: CampaignFixture;

  const t = (s: number) => new Date(Date.UTC(2026, 0, 5, 9, 0, s)).toISOString();
  // Main [0, 20); sub-1 [2, 9) and sub-2 [4, 14) overlap 5 s; sub-3 [14, 18) touches sub-2's end without overlapping it.
  const events: Record<string, unknown>[] = [
    { id: 'm-start', type: 'agent.start', time: t(0), agentId: 'main', parentAgentId: null, name: 'main' },
    { id: 'm-spawn-1', type: 'tool.call', time: t(1), agentId: 'main', toolCallId: 'spawn-1', kind: 'spawn', durationMs: 3 },
    { id: 's1-start', type: 'agent.start', time: t(2), agentId: 'sub-1', parentAgentId: 'main', spawnedByToolCallId: 'spawn-1' },
    { id: 's1-model', type: 'model.call', time: t(3), agentId: 'sub-1', provider: 'fanout', model: 'fanout/demo-agent', durationMs: 40, usage: { style: 'openai', inputTokens: 2000, outputTokens: 300 } },
    { id: 's2-start', type: 'agent.start', time: t(4), agentId: 'sub-2', parentAgentId: 'main' },
    { id: 's1-shell', type: 'tool.call', time: t(5), agentId: 'sub-1', toolCallId: 'sh-1', kind: 'shell', command: 'npm test', exitCode: 1, durationMs: 800, output: 'FAIL '.repeat(3000) },
    { id: 's2-read', type: 'tool.call', time: t(6), agentId: 'sub-2', toolCallId: 'rd-1', kind: 'read', durationMs: 2 },
    { id: 's2-write', type: 'file.write', time: t(7), agentId: 'sub-2', path: 'src/index.js', bytes: 120 },
    { id: 's1-msg', type: 'message', time: t(8), agentId: 'sub-1', role: 'assistant', text: 'tests fixed' },
    { id: 's1-end', type: 'agent.end', time: t(9), agentId: 'sub-1', status: 'ok' },
    { id: 's2-model', type: 'model.call', time: t(10), agentId: 'sub-2', provider: 'fanout', model: 'fanout/demo-agent', durationMs: 30, usage: { style: 'openai', inputTokens: 1000, outputTokens: 100 } },
    { id: 's2-shell', type: 'tool.call', time: t(12), agentId: 'sub-2', toolCallId: 'sh-2', kind: 'shell', command: 'npm run build', exitCode: 0, durationMs: 500 },
    { id: 's2-end', type: 'agent.end', time: t(14), agentId: 'sub-2', status: 'ok' },
    { id: 's3-start', type: 'agent.start', time: t(14), agentId: 'sub-3', parentAgentId: 'sub-2' },
    { id: 's3-shell', type: 'tool.call', time: t(16), agentId: 'sub-3', toolCallId: 'sh-3', kind: 'shell', command: 'ls', exitCode: 0, durationMs: 5 },
    { id: 's3-end', type: 'agent.end', time: t(18), agentId: 'sub-3', status: 'ok' },
    { id: 'm-msg', type: 'message', time: t(19), agentId: 'main', role: 'assistant', text: 'done' },
    { id: 'm-end', type: 'agent.end', time: t(20), agentId: 'main', status: 'ok' },
  ];
  const runSpans: AgentSpan[] = [
    { id: 'main', parentId: null, start: Date.parse(t(0)), end: Date.parse(t(20)) },
    { id: 'sub-1', parentId: 'main', start: Date.parse(t(2)), end: Date.parse(t(9)) },
    { id: 'sub-2', parentId: 'main', start: Date.parse(t(4)), end: Date.parse(t(14)) },
    { id: 'sub-3', parentId: 'sub-2', start: Date.parse(t(14)), end: Date.parse(t(18)) },
  ];

  const runnerCall = (path: string, body: string, type = 'application/json') =>
    fetch(`${api.url}/v1/executions/${run.executionId}/${path}`, { method: 'POST', headers: { authorization: `Bearer ${run.token}`, 'content-type': type }, body });

  async function importRecords(fixture: CampaignFixture, key: string, units: FixtureUnit[]) {
    const res = await fetch(`${api.url}/v1/campaigns/${fixture.campaignId}/import`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson', authorization: `Bearer ${key}` },
      body: jsonl(units.map((u, i) => recordFor(u, i))),
    });
    expect(res.status).toBe(200);
  }

  const concurrentUnit = (fixture: CampaignFixture) => fixture.units.find((u) => u.mode === 'concurrent')!;

  beforeAll(async () => {
    api = await startTestApi();
    orgA = await signUp(api, 'detail-a');
    orgB = await signUp(api, 'detail-b');
    const keyA = (await createKey(api, orgA.token, 'MEMBER')).key;

    // A run through the runner protocol: events, then the grade that summarises them.
    await launchedCampaign(api, orgA.token, { tasks: 1 });
    [run] = (await claimExecutions(api.db.dataSource, 10)) as [StartRequest];
    expect(run).toBeTruthy();
    // Two batches, so arrival order (seq) spans more than one insert.
    for (const batch of [events.slice(0, 7), events.slice(7)]) {
      const res = await runnerCall('events', batch.map((e) => JSON.stringify(e)).join('\n'), 'application/x-ndjson');
      expect(await res.json()).toMatchObject({ accepted: batch.length, rejected: [] });
    }
    const grade = { attempt: 1, testsPassed: 3, testsTotal: 4, resolved: false, agentEnd: 'exited', agentExitCode: 0, graderExitCode: 1, wallSeconds: 20.5, graderOutputTail: '1 failing' };
    expect(await (await runnerCall('grade', JSON.stringify(grade))).json()).toEqual({ status: 'completed' });

    // Imported results: one private campaign, one public one.
    imported = await createCampaignFixture(api.db.dataSource, { orgId: orgA.orgId });
    await importRecords(imported, keyA, imported.units);
    publicCampaign = await createCampaignFixture(api.db.dataSource, { orgId: orgA.orgId, name: 'public detail' });
    await api.db.dataSource.query(`UPDATE campaigns SET visibility = 'public' WHERE id = $1`, [publicCampaign.campaignId]);
    await importRecords(publicCampaign, keyA, [concurrentUnit(publicCampaign)]);
  });
  afterAll(() => api.close());

  it('shows a run execution: grade, usage, cost, summary, delegation and the agent tree', async () => {
    const res = await api.gql<{ execution: Record<string, any> }>(DETAIL, { id: run.executionId }, orgA.token);
    expect(res.errors).toBeUndefined();
    const e = res.data!.execution;
    expect(e).toMatchObject({ id: run.executionId, status: 'COMPLETED', outcome: 'completed', testsPassed: 3, testsTotal: 4, resolved: false, tokens: { input: 3000, output: 400 } });
    expect(e.costUsd).toBeGreaterThan(0);
    expect(e.grade).toEqual({ agentEnd: 'exited', agentExitCode: 0, graderExitCode: 1, graderOutputTail: '1 failing' });
    expect(e.summary).toMatchObject({ shellCalls: 3, toolCalls: 5, modelCalls: 2, fileWrites: 1, unpricedModels: [] });
    expect(e.delegation).toEqual(expectedDelegation(runSpans));
    expect(e.delegation).toMatchObject({ created: 3, peak: 2, overlapSeconds: 5, spanSeconds: 20, overlapRatio: 0.25 });
    expect(e.agentTree).toEqual([
      { id: 'main', parentId: null, depth: 0, start: t(0), end: t(20), durationSeconds: 20, offsetSeconds: 0 },
      { id: 'sub-1', parentId: 'main', depth: 1, start: t(2), end: t(9), durationSeconds: 7, offsetSeconds: 2 },
      { id: 'sub-2', parentId: 'main', depth: 1, start: t(4), end: t(14), durationSeconds: 10, offsetSeconds: 4 },
      { id: 'sub-3', parentId: 'sub-2', depth: 2, start: t(14), end: t(18), durationSeconds: 4, offsetSeconds: 14 },
    ]);
  });

  it('delegation of imported spans equals libs/metrics on the same spans (sub-millisecond times and offsets kept)', async () => {
    const unit = concurrentUnit(imported);
    const spans = recordFor(unit).agents.map((a) => ({ id: a.id, parentId: a.parentId, start: isoToEpochMs(a.start), end: isoToEpochMs(a.end) }));
    const res = await api.gql<{ execution: Record<string, any> }>(DETAIL, { id: unit.id }, orgA.token);
    expect(res.errors).toBeUndefined();
    const e = res.data!.execution;
    expect(e.delegation).toEqual(expectedDelegation(spans));
    expect(e.summary).toBeNull();
    expect(e.grade).toEqual({ agentEnd: null, agentExitCode: null, graderExitCode: null, graderOutputTail: null });
    // a1 (a's sub-agent) starts half a second before main, so it sets t0.
    expect(e.agentTree.map((n: { id: string; depth: number; offsetSeconds: number }) => [n.id, n.depth, n.offsetSeconds])).toEqual([
      ['main', 0, 0.5],
      ['a', 1, 240.5],
      ['a1', 2, 0],
    ]);
    const a1 = spans.find((s) => s.id === 'a1')!;
    expect(e.agentTree[2].durationSeconds).toBe((a1.end - a1.start) / 1000);
  });

  it('a queued execution has no delegation, an empty tree and no events yet', async () => {
    const [queued] = await api.db.dataSource.query(`SELECT id FROM executions WHERE org_id = $1 AND status = 'queued' LIMIT 1`, [orgA.orgId]);
    const detail = await api.gql<{ execution: Record<string, any> }>(DETAIL, { id: queued.id }, orgA.token);
    expect(detail.data!.execution).toMatchObject({ status: 'QUEUED', grade: null, summary: null, delegation: null, agentTree: [] });
    const page = await api.gql<EventsPage>(EVENTS, { id: queued.id }, orgA.token);
    expect(page.data!.execution.events).toEqual({ totalCount: 0, edges: [], pageInfo: { endCursor: null, hasNextPage: false } });
  });

  it('NOT_FOUND for another org\'s private execution and for anonymous callers, worded like a missing id', async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    const words = (res: GqlResult, id: string) => res.errors![0]!.message.replace(id, '<id>');
    const reference = await api.gql(DETAIL, { id: missing }, orgB.token);
    expect(codeOf(reference)).toBe('NOT_FOUND');
    for (const id of [run.executionId, concurrentUnit(imported).id]) {
      for (const token of [orgB.token, undefined]) {
        const res = await api.gql(DETAIL, { id }, token);
        expect(codeOf(res)).toBe('NOT_FOUND');
        expect(res.data).toBeNull();
        expect(words(res, id)).toBe(words(reference, missing));
        expect(codeOf(await api.gql(EVENTS, { id }, token))).toBe('NOT_FOUND');
      }
    }
    expect(codeOf(await api.gql(DETAIL, { id: 'not-a-uuid' }, orgA.token))).toBe('NOT_FOUND');
  });

  it('a public campaign\'s execution is visible to anonymous callers and other orgs', async () => {
    const unit = concurrentUnit(publicCampaign);
    for (const token of [undefined, orgB.token, orgA.token]) {
      const res = await api.gql<{ execution: Record<string, any> }>(DETAIL, { id: unit.id }, token);
      expect(res.errors).toBeUndefined();
      expect(res.data!.execution).toMatchObject({ id: unit.id, outcome: 'completed', delegation: { created: 2 } });
    }
    const events = await api.gql<EventsPage>(EVENTS, { id: unit.id }, undefined);
    expect(events.data!.execution.events.totalCount).toBe(0);
  });

  async function walk(variables: Record<string, unknown>, first: number): Promise<{ nodes: EventNode[]; totals: Set<number>; pages: number }> {
    const nodes: EventNode[] = [];
    const totals = new Set<number>();
    let after: string | null = null;
    let pages = 0;
    for (;;) {
      const res: GqlResult<EventsPage> = await api.gql<EventsPage>(EVENTS, { id: run.executionId, first, after, ...variables }, orgA.token);
      expect(res.errors).toBeUndefined();
      const { edges, pageInfo, totalCount } = res.data!.execution.events;
      pages++;
      totals.add(totalCount);
      expect(edges.length).toBeLessThanOrEqual(first);
      for (const edge of edges) expect(edge.cursor).toBe(edge.node.seq);
      nodes.push(...edges.map((e) => e.node));
      expect(pageInfo.endCursor).toBe(edges.at(-1)?.cursor ?? null);
      if (!pageInfo.hasNextPage) break;
      after = pageInfo.endCursor;
    }
    return { nodes, totals, pages };
  }

  it('pages through every event exactly once in seq order', async () => {
    const stored: { event_id: string; seq_text: string }[] = await api.db.dataSource.query(
      'SELECT event_id, seq::text AS seq_text FROM trajectory_events WHERE execution_id = $1 ORDER BY seq',
      [run.executionId],
    );
    expect(stored).toHaveLength(events.length);
    const { nodes, totals, pages } = await walk({}, 4);
    expect(pages).toBe(Math.ceil(events.length / 4));
    expect([...totals]).toEqual([events.length]);
    expect(nodes.map((n) => n.eventId)).toEqual(stored.map((r) => r.event_id));
    expect(nodes.map((n) => n.seq)).toEqual(stored.map((r) => r.seq_text));
    const seqs = nodes.map((n) => BigInt(n.seq));
    for (let i = 1; i < seqs.length; i++) expect(seqs[i]! > seqs[i - 1]!).toBe(true);
    const shell = nodes.find((n) => n.eventId === 's1-shell')!;
    expect(shell).toMatchObject({ type: 'tool.call', agentId: 'sub-1', time: t(5), data: { kind: 'shell', command: 'npm test', exitCode: 1, outputBytes: 15_000 } });
    expect(shell.payload).toBe('FAIL '.repeat(3000));
    expect(nodes.find((n) => n.eventId === 's1-msg')!.payload).toBe('tests fixed');
    expect(nodes.find((n) => n.eventId === 's2-read')!.payload).toBeNull();
  });

  it('filters by agent and by event type, still in seq order across pages', async () => {
    const sub2 = await walk({ agentId: 'sub-2' }, 2);
    expect(sub2.nodes.map((n) => n.eventId)).toEqual(events.filter((e) => e.agentId === 'sub-2').map((e) => e.id));
    expect([...sub2.totals]).toEqual([6]);
    const shells = await walk({ agentId: 'sub-2', kinds: ['tool.call', 'agent.end'] }, 1);
    expect(shells.nodes.map((n) => n.eventId)).toEqual(['s2-read', 's2-shell', 's2-end']);
    const calls = await walk({ kinds: ['model.call'] }, 100);
    expect(calls.nodes.map((n) => n.eventId)).toEqual(['s1-model', 's2-model']);
    expect((await walk({ agentId: 'nobody' }, 10)).nodes).toEqual([]);
  });

  it('refuses a bad page size, cursor or event type with BAD_USER_INPUT naming the field', async () => {
    const ask = (variables: Record<string, unknown>) => api.gql(EVENTS, { id: run.executionId, ...variables }, orgA.token);
    for (const first of [0, 101, -1]) {
      expect((await ask({ first })).errors![0]!.extensions).toEqual({ code: 'BAD_USER_INPUT', field: 'first' });
    }
    for (const after of ['abc', '-1', '1.5', '99999999999999999999', 'MjAyNi0wMS0wMVQwMDowMDowMC4wMDBafDE']) {
      const res = await ask({ after });
      expect(res.errors![0]!.extensions).toEqual({ code: 'BAD_USER_INPUT', field: 'after' });
      expect(res.errors![0]!.message).toMatch(/^after: expected a cursor returned by a previous page/);
    }
    const kind = await ask({ kinds: ['tool.call', 'tool.run'] });
    expect(kind.errors![0]!.extensions).toEqual({ code: 'BAD_USER_INPUT', field: 'kinds' });
    expect(kind.errors![0]!.message).toContain('"tool.run"');
  });
});
