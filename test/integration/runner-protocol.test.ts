import { claimExecutions, type StartRequest } from '#libs/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, startTestApi, type TestApi } from '../support/api.js';
import { launchedCampaign } from '../support/engine.js';

describe('runner protocol', () => {
  let api: TestApi;
  let runs: StartRequest[];
  let campaign: string;

  const call = (id: string, path: string, token: string | undefined, body?: string, type = 'application/json') =>
    fetch(`${api.url}/v1/executions/${id}/${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body !== undefined ? { 'content-type': type } : {}) },
      body,
    });
  const ndjson = (events: unknown[]) => events.map((e) => JSON.stringify(e)).join('\n');
  const t = (s: number) => new Date(Date.UTC(2026, 10, 29, 12, 0, s)).toISOString();

  beforeAll(async () => {
    api = await startTestApi();
    const u = await signUp(api, 'runner');
    campaign = await launchedCampaign(api, u.token, { tasks: 3 });
    runs = await claimExecutions(api.db.dataSource, 10);
    expect(runs).toHaveLength(3);
  });
  afterAll(() => api.close());

  it('a token works for its own execution only: 403 for another, 404 for a missing one, 401 without', async () => {
    const [a, b] = runs;
    expect((await call(a!.executionId, 'spec', a!.token)).status).toBe(200);
    expect((await call(b!.executionId, 'spec', a!.token)).status).toBe(403);
    expect((await call(b!.executionId, 'events', a!.token, '{}', 'application/x-ndjson')).status).toBe(403);
    expect((await call(b!.executionId, 'grade', a!.token, '{}')).status).toBe(403);
    expect((await call('00000000-0000-4000-8000-000000000000', 'spec', a!.token)).status).toBe(404);
    expect((await call(a!.executionId, 'spec', undefined)).status).toBe(401);
  });

  it('serves the spec: command, mode env, task, seed and budget', async () => {
    const spec = (await (await call(runs[0]!.executionId, 'spec', runs[0]!.token)).json()) as Record<string, any>;
    expect(spec).toMatchObject({
      executionId: runs[0]!.executionId,
      attempt: 1,
      campaignId: campaign,
      mode: 'sequential',
      agent: { command: ['node', 'agent.js'], env: { FANOUT_MODE: 'sequential' }, model: 'fanout/demo-agent' },
      task: { difficulty: 'easy', timeBudgetSeconds: 1800, grader: { format: 'junit' } },
    });
    expect(spec.task.workspace).toMatch(/^\//);
  });

  const events = [
    { id: 'e1', type: 'agent.start', time: t(0), agentId: 'main', parentAgentId: null },
    { id: 'e2', type: 'tool.call', time: t(1), agentId: 'main', toolCallId: 'spawn-1', kind: 'spawn', durationMs: 5 },
    { id: 'e3', type: 'agent.start', time: t(2), agentId: 'sub-1', parentAgentId: 'main', spawnedByToolCallId: 'spawn-1' },
    { id: 'e4', type: 'agent.start', time: t(3), agentId: 'sub-2', parentAgentId: 'main' },
    { id: 'e5', type: 'model.call', time: t(4), agentId: 'sub-1', provider: 'fanout', model: 'fanout/demo-agent', durationMs: 10, usage: { style: 'openai', inputTokens: 1_000_000, cachedInputTokens: 400_000, outputTokens: 100_000 } },
    { id: 'e6', type: 'tool.call', time: t(5), agentId: 'sub-2', toolCallId: 'sh-1', kind: 'shell', command: 'npm test', exitCode: 1, durationMs: 900, output: 'x'.repeat(10_000) },
    { id: 'e7', type: 'agent.end', time: t(6), agentId: 'sub-1', status: 'ok' },
    { id: 'e8', type: 'agent.end', time: t(8), agentId: 'sub-2', status: 'ok' },
    { id: 'e9', type: 'message', time: t(9), agentId: 'main', role: 'assistant', text: 'done' },
    { id: 'e10', type: 'agent.end', time: t(10), agentId: 'main' },
  ];

  it('stores a batch, reports bad events by index, and ignores a re-sent batch', async () => {
    const [run] = runs;
    const body = [ndjson(events.slice(0, 5)), '{not json', JSON.stringify({ id: 'bad', type: 'model.call', time: t(4), agentId: 'main' }), ndjson(events.slice(5))].join('\n');
    const first = await (await call(run!.executionId, 'events', run!.token, body, 'application/x-ndjson')).json();
    expect(first).toEqual({ accepted: 10, duplicates: 0, rejected: [{ index: 5, reason: 'not valid JSON' }, { index: 6, reason: expect.stringMatching(/^provider: /) }] });
    const again = await (await call(run!.executionId, 'events', run!.token, ndjson(events), 'application/x-ndjson')).json();
    expect(again).toEqual({ accepted: 0, duplicates: 10, rejected: [] });
    const [{ n }] = await api.db.dataSource.query('SELECT count(*)::int AS n FROM trajectory_events WHERE execution_id = $1', [run!.executionId]);
    expect(n).toBe(10);
    const [payload] = await api.db.dataSource.query(`SELECT length(body)::int AS len FROM trajectory_payloads WHERE execution_id = $1 AND event_id = 'e6'`, [run!.executionId]);
    expect(payload.len).toBe(10_000);
    const [row] = await api.db.dataSource.query(`SELECT data FROM trajectory_events WHERE execution_id = $1 AND event_id = 'e6'`, [run!.executionId]);
    expect(row.data.output).toBeUndefined();
  });

  it('refuses a batch over 5 MB with 413 and stores nothing of it', async () => {
    const [, run] = runs;
    const big = Array.from({ length: 6 }, (_, i) => JSON.stringify({ id: `m${i}`, type: 'message', time: t(1), agentId: 'main', role: 'user', text: 'y'.repeat(1_000_000) })).join('\n');
    const res = await call(run!.executionId, 'events', run!.token, big, 'application/x-ndjson');
    expect(res.status).toBe(413);
    const [{ n }] = await api.db.dataSource.query('SELECT count(*)::int AS n FROM trajectory_events WHERE execution_id = $1', [run!.executionId]);
    expect(n).toBe(0);
  });

  it('a heartbeat marks the attempt running; a grade completes it with its summary from the events', async () => {
    const [run] = runs;
    expect(await (await call(run!.executionId, 'heartbeat', run!.token, JSON.stringify({ attempt: 1, phase: 'agent' }))).json()).toEqual({ cancel: false });
    const grade = { attempt: 1, testsPassed: 7, testsTotal: 9, resolved: false, agentEnd: 'exited', agentExitCode: 0, graderExitCode: 1, wallSeconds: 10.5 };
    const bad = await call(run!.executionId, 'grade', run!.token, JSON.stringify({ ...grade, testsPassed: 10 }));
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { field: string } }).error.field).toBe('testsPassed');
    expect(await (await call(run!.executionId, 'grade', run!.token, JSON.stringify(grade))).json()).toEqual({ status: 'completed' });
    expect(await (await call(run!.executionId, 'grade', run!.token, JSON.stringify(grade))).json()).toEqual({ status: 'completed' });
    const [e] = await api.db.dataSource.query('SELECT * FROM executions WHERE id = $1', [run!.executionId]);
    expect(e).toMatchObject({ status: 'completed', outcome: 'completed', tests_passed: 7, tests_total: 9, resolved: false, shell_calls: 1, agent_end: 'exited' });
    // OpenAI style: 1,000,000 input with 400,000 cached: 600,000 uncached x $1 + 400,000 x $0.10 + 100,000 output x $4 (demo prices).
    expect(Number(e.input_tokens)).toBe(1_000_000);
    expect(Number(e.cache_read_tokens)).toBe(400_000);
    expect(Number(e.cost_micros)).toBe(600_000 + 40_000 + 400_000);
    expect(e.agents).toHaveLength(3);
    // Sub-agents [2, 6) and [3, 8) overlap for 3 s of a 10 s span.
    expect(e.summary.delegation).toMatchObject({ created: 2, peak: 2, overlapTime: 3000, overlapRatio: 0.3 });
  });

  it('a cancelled campaign answers cancel at the next heartbeat', async () => {
    const [, , run] = runs;
    const owner = (await api.db.dataSource.query('SELECT org_id FROM campaigns WHERE id = $1', [campaign]))[0];
    expect(owner).toBeTruthy();
    await api.db.dataSource.query(`UPDATE campaigns SET status = 'cancelled' WHERE id = $1`, [campaign]);
    expect(await (await call(run!.executionId, 'heartbeat', run!.token, JSON.stringify({ attempt: 1, phase: 'agent' }))).json()).toEqual({ cancel: true });
  });
});
