import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeOf, createKey, signUp, startTestApi, type TestApi } from '../support/api.js';
import { createCampaignFixture, type CampaignFixture } from '../support/campaign-fixture.js';
import { requireBuild, runCli } from '../support/processes.js';

const USAGE = `query($g: [UsageDimension!]!, $from: DateTime, $to: DateTime, $c: ID) { usage(groupBy: $g, from: $from, to: $to, campaign: $c) {
  campaignId campaignName agent model mode day calls executions
  tokens { uncachedInput cacheRead cacheWrite output reasoning total } costUsd unpricedCalls resolved costPerResolvedUsd } }`;

interface Row {
  campaignId: string | null;
  campaignName: string | null;
  agent: string | null;
  model: string | null;
  mode: string | null;
  day: string | null;
  calls: number;
  executions: number;
  tokens: { uncachedInput: number; cacheRead: number; cacheWrite: number; output: number; reasoning: number; total: number };
  costUsd: number;
  unpricedCalls: number;
  resolved: number | null;
  costPerResolvedUsd: number | null;
}

const DAY1 = '2025-06-01T10:00:00Z';
// Late on June 2nd in UTC (already June 3rd east of Greenwich): days are UTC days.
const DAY2 = '2025-06-02T23:30:00Z';

type Tokens = [number, number, number, number, number];

async function call(api: TestApi, executionId: string, model: string, time: string, t: Tokens, costMicros: number, unpriced = false): Promise<void> {
  await api.db.dataSource.query(
    `INSERT INTO usage_ledger (execution_id, attempt, event_id, org_id, campaign_id, agent_config_version_id, agent_name, mode, agent_id, provider, model, call_time,
                               uncached_input_tokens, cache_read_tokens, cache_write_tokens, output_tokens, reasoning_tokens, cost_micros, unpriced, price_id)
     SELECT x.id, 1, $2, x.org_id, x.campaign_id, x.agent_config_version_id, x.agent_name, x.mode, 'main', 'test', $3, $4, $5, $6, $7, $8, $9, $10, $11, NULL
       FROM executions x WHERE x.id = $1`,
    [executionId, randomUUID(), model, time, ...t, costMicros, unpriced],
  );
}

describe('usage views', () => {
  let api: TestApi;
  let a: Awaited<ReturnType<typeof signUp>>;
  let b: Awaited<ReturnType<typeof signUp>>;
  let c1: CampaignFixture;
  let c2: CampaignFixture;
  let cb: CampaignFixture;

  const usage = async (token: string, vars: Record<string, unknown>) => {
    const res = await api.gql<{ usage: Row[] }>(USAGE, vars, token);
    expect(res.errors).toBeUndefined();
    return res.data!.usage;
  };

  beforeAll(async () => {
    api = await startTestApi();
    a = await signUp(api, 'alice');
    b = await signUp(api, 'bob');
    const bench = [{ key: 'bench', tasks: [{ key: 't1', difficulty: 'easy' as const }] }];
    c1 = await createCampaignFixture(api.db.dataSource, {
      orgId: a.orgId,
      name: 'alpha',
      agents: [
        { name: 'codex', model: 'gpt-x' },
        { name: 'claude', model: 'claude-x' },
      ],
      modes: ['concurrent', 'sequential'],
      benchmarks: bench,
      repetitions: 1,
    });
    c2 = await createCampaignFixture(api.db.dataSource, { orgId: a.orgId, name: 'beta', agents: [{ name: 'codex', model: 'gpt-x' }], modes: ['concurrent'], benchmarks: bench, repetitions: 1 });
    cb = await createCampaignFixture(api.db.dataSource, { orgId: b.orgId, name: 'bob campaign', agents: [{ name: 'codex', model: 'gpt-x' }], modes: ['concurrent'], benchmarks: bench, repetitions: 1 });
    const unit = (f: CampaignFixture, agent: string, mode: string) => f.units.find((u) => u.agent === agent && u.mode === mode)!.id;
    const resolved = async (id: string, value: boolean | null) => api.db.dataSource.query('UPDATE executions SET resolved = $2 WHERE id = $1', [id, value]);
    await resolved(unit(c1, 'codex', 'concurrent'), true);
    await resolved(unit(c1, 'codex', 'sequential'), false);
    await resolved(unit(c1, 'claude', 'concurrent'), true);
    // claude sequential: still running (resolved null).
    await resolved(unit(c2, 'codex', 'concurrent'), true);
    await resolved(unit(cb, 'codex', 'concurrent'), true);
    //                                                              uncached, cacheRead, cacheWrite, output, reasoning
    await call(api, unit(c1, 'codex', 'concurrent'), 'gpt-x', DAY1, [100, 1000, 0, 50, 10], 1_000_001);
    await call(api, unit(c1, 'codex', 'concurrent'), 'gpt-x', DAY2, [200, 0, 0, 60, 0], 2_000_000);
    await call(api, unit(c1, 'codex', 'sequential'), 'gpt-x', DAY1, [300, 0, 0, 70, 5], 500_000);
    await call(api, unit(c1, 'claude', 'concurrent'), 'claude-x', DAY1, [10, 20, 30, 40, 0], 3_333_333);
    // A sub-agent on a model without a price: counted, flagged, $0.
    await call(api, unit(c1, 'claude', 'concurrent'), 'mystery', DAY2, [1, 0, 0, 1, 0], 0, true);
    await call(api, unit(c1, 'claude', 'sequential'), 'claude-x', DAY2, [5, 5, 5, 5, 0], 123);
    await call(api, unit(c2, 'codex', 'concurrent'), 'gpt-x', DAY1, [1000, 0, 0, 100, 0], 4_000_000);
    // Org B's: must never show up in org A's views.
    await call(api, unit(cb, 'codex', 'concurrent'), 'gpt-x', DAY1, [9_000_000, 9_000_000, 9_000_000, 9_000_000, 0], 9_999_999_999);
  });
  afterAll(() => api?.close());

  it('ungrouped: the org\'s total, with cost per resolved execution', async () => {
    const [total, ...rest] = await usage(a.token, { g: [] });
    expect(rest).toEqual([]);
    expect(total).toEqual({
      campaignId: null,
      campaignName: null,
      agent: null,
      model: null,
      mode: null,
      day: null,
      calls: 7,
      executions: 5,
      tokens: { uncachedInput: 1616, cacheRead: 1025, cacheWrite: 35, output: 326, reasoning: 15, total: 1616 + 1025 + 35 + 326 },
      costUsd: 10.833457,
      unpricedCalls: 1,
      // codex concurrent (alpha), claude concurrent (alpha), codex concurrent (beta)
      resolved: 3,
      costPerResolvedUsd: 10_833_457 / 3 / 1e6,
    });
  });

  it('by campaign', async () => {
    const rows = await usage(a.token, { g: ['CAMPAIGN'] });
    expect(rows.map((r) => [r.campaignId, r.campaignName, r.calls, r.executions, r.costUsd, r.unpricedCalls, r.resolved, r.costPerResolvedUsd])).toEqual([
      [c1.campaignId, 'alpha', 6, 4, 6.833457, 1, 2, 6_833_457 / 2 / 1e6],
      [c2.campaignId, 'beta', 1, 1, 4, 0, 1, 4],
    ]);
    expect(rows[0]!.tokens).toEqual({ uncachedInput: 616, cacheRead: 1025, cacheWrite: 35, output: 226, reasoning: 15, total: 616 + 1025 + 35 + 226 });
  });

  it('by agent and mode: cost per resolved is null where none resolved', async () => {
    const rows = await usage(a.token, { g: ['AGENT', 'MODE'] });
    expect(rows.map((r) => [r.agent, r.mode, r.calls, r.executions, r.costUsd, r.resolved, r.costPerResolvedUsd])).toEqual([
      ['claude', 'concurrent', 2, 1, 3.333333, 1, 3.333333],
      ['claude', 'sequential', 1, 1, 0.000123, 0, null],
      ['codex', 'concurrent', 3, 2, 7.000001, 2, 7_000_001 / 2 / 1e6],
      ['codex', 'sequential', 1, 1, 0.5, 0, null],
    ]);
    expect(rows.every((r) => r.campaignId === null && r.model === null && r.day === null)).toBe(true);
  });

  it('by model and by day: resolved is null (an execution can fall in several groups)', async () => {
    const byModel = await usage(a.token, { g: ['MODEL'] });
    expect(byModel.map((r) => [r.model, r.calls, r.costUsd, r.unpricedCalls, r.resolved, r.costPerResolvedUsd])).toEqual([
      ['claude-x', 2, 3.333456, 0, null, null],
      ['gpt-x', 4, 7.500001, 0, null, null],
      ['mystery', 1, 0, 1, null, null],
    ]);
    const byDay = await usage(a.token, { g: ['DAY'] });
    expect(byDay.map((r) => [r.day, r.calls, r.costUsd, r.resolved])).toEqual([
      ['2025-06-01', 4, 8.833334, null],
      ['2025-06-02', 3, 2.000123, null],
    ]);
    const byCampaignDay = await usage(a.token, { g: ['CAMPAIGN', 'DAY'] });
    expect(byCampaignDay.map((r) => [r.campaignName, r.day, r.calls, r.resolved])).toEqual([
      ['alpha', '2025-06-01', 3, null],
      ['alpha', '2025-06-02', 3, null],
      ['beta', '2025-06-01', 1, null],
    ]);
  });

  it('from (inclusive), to (exclusive) and campaign narrow the calls', async () => {
    const fromDay2 = await usage(a.token, { g: ['DAY'], from: '2025-06-02T00:00:00Z' });
    expect(fromDay2.map((r) => r.day)).toEqual(['2025-06-02']);
    const toDay2 = await usage(a.token, { g: ['DAY'], to: '2025-06-02T00:00:00Z' });
    expect(toDay2.map((r) => r.day)).toEqual(['2025-06-01']);
    const exact = await usage(a.token, { g: [], from: DAY1, to: '2025-06-01T10:00:00.001Z' });
    expect(exact[0]!.calls).toBe(4);
    const beta = await usage(a.token, { g: ['MODEL'], c: c2.campaignId });
    expect(beta.map((r) => [r.model, r.calls, r.costUsd])).toEqual([['gpt-x', 1, 4]]);
    const empty = await usage(a.token, { g: [], from: '2030-01-01T00:00:00Z' });
    expect(empty).toEqual([expect.objectContaining({ calls: 0, executions: 0, costUsd: 0, resolved: 0, costPerResolvedUsd: null })]);
    const inverted = await api.gql(USAGE, { g: [], from: DAY2, to: DAY1 }, a.token);
    expect(codeOf(inverted)).toBe('BAD_USER_INPUT');
    expect(inverted.errors![0]!.extensions!.field).toBe('to');
  });

  it('cross-tenant: org B\'s usage never includes org A\'s calls, and A\'s campaign id answers NOT_FOUND like a missing one', async () => {
    for (const token of [b.token, (await createKey(api, b.token, 'VIEWER')).key]) {
      const total = await usage(token, { g: [] });
      expect(total).toHaveLength(1);
      expect(total[0]).toMatchObject({ calls: 1, costUsd: 9_999.999999, resolved: 1 });
      const byCampaign = await usage(token, { g: ['CAMPAIGN', 'AGENT', 'MODEL'] });
      expect(byCampaign.map((r) => r.campaignId)).toEqual([cb.campaignId]);
      const other = await api.gql(USAGE, { g: [], c: c1.campaignId }, token);
      const missing = '00000000-0000-4000-8000-000000000000';
      const none = await api.gql(USAGE, { g: [], c: missing }, token);
      expect(codeOf(other)).toBe('NOT_FOUND');
      expect(codeOf(none)).toBe('NOT_FOUND');
      expect(other.errors![0]!.message.replace(c1.campaignId, 'X')).toBe(none.errors![0]!.message.replace(missing, 'X'));
    }
    const aTotal = await usage(a.token, { g: ['CAMPAIGN'] });
    expect(aTotal.map((r) => r.campaignId)).not.toContain(cb.campaignId);
  });

  it('needs a credential', async () => {
    expect(codeOf(await api.gql(USAGE, { g: [] }))).toBe('UNAUTHENTICATED');
  });

  it('fanout usage prints the same figures (csv, json)', async () => {
    requireBuild();
    const key = (await createKey(api, a.token, 'VIEWER')).key;
    const env = { FANOUT_API: api.url, FANOUT_API_KEY: key };
    const csv = await runCli(['usage', '--by', 'agent,mode', '--format', 'csv'], env);
    expect(csv.code, csv.stderr).toBe(0);
    const lines = csv.stdout.trim().split('\n');
    expect(lines[0]).toBe('agent,mode,calls,executions,uncached in (M),cache read (M),cache write (M),output (M),reasoning (M),cost $,unpriced,resolved,$/resolved');
    expect(lines.slice(1)).toEqual([
      'claude,concurrent,2,1,0.000,0.000,0.000,0.000,0.000,3.33,1,1,3.33',
      'claude,sequential,1,1,0.000,0.000,0.000,0.000,0.000,0.00,0,0,-',
      'codex,concurrent,3,2,0.001,0.001,0.000,0.000,0.000,7.00,0,2,3.50',
      'codex,sequential,1,1,0.000,0.000,0.000,0.000,0.000,0.50,0,0,-',
    ]);
    const json = await runCli(['usage', '--by', 'campaign', '--from', '2025-06-02', '--campaign', c1.campaignId, '--format', 'json'], env);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual([expect.objectContaining({ campaignId: c1.campaignId, calls: 3, costUsd: 2.000123 })]);
    const bad = await runCli(['usage', '--by', 'planet'], env);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('--by: expected a comma-separated list of campaign, agent, model, mode, day; got "planet"');
  });
});
