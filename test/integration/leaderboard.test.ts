import { parseExecutionRecords, toMetricsExecution } from '#libs/contracts';
import { paretoFront, summariseOutcomes } from '#libs/metrics';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeOf, signUp, startTestApi, type TestApi } from '../support/api.js';
import { CREATE, REGISTER_AGENT, REGISTER_BENCHMARK, agentManifest, benchmarkManifest, campaignManifest } from '../support/manifests.js';

/** Public boards: public campaigns only, every figure from libs/metrics. */
describe('leaderboard', () => {
  let api: TestApi;
  let publicCampaign: string;

  /** Imports a result for every execution of a campaign; `resolvedEvery` sets how often a run is fully solved. */
  async function fillCampaign(token: string, campaignId: string, resolvedEvery: number, costUsd: number) {
    const res = await api.gql<any>(
      'query($f: ExecutionFilterInput) { executions(filter: $f, first: 100) { nodes { agentName model mode benchmark suite task difficulty repetition } } }',
      { f: { campaignId } },
      token,
    );
    const lines = res.data.executions.nodes.map((n: any, i: number) => {
      const resolved = i % resolvedEvery === 0;
      const start = Date.UTC(2026, 0, 1, 10) + i * 60_000;
      return JSON.stringify({
        agent: n.agentName, model: n.model, benchmark: n.benchmark, suite: n.suite, task: n.task, difficulty: n.difficulty.toLowerCase(), mode: n.mode, repetition: n.repetition,
        outcome: i === 1 ? 'infra_failed' : 'completed', testsPassed: resolved ? 10 : 4, testsTotal: 10, resolved, wallSeconds: 600 + i, shellCalls: 20,
        usage: { inputTokens: 1_000_000, cacheReadTokens: 500_000, cacheWriteTokens: 0, outputTokens: 50_000, reasoningTokens: 0 },
        costUsd: n.mode === 'concurrent' ? costUsd * 2 : costUsd,
        agents: [{ id: 'main', parentId: null, start: new Date(start).toISOString(), end: new Date(start + 600_000).toISOString() }],
      });
    });
    const imported = await fetch(`${api.url}/v1/campaigns/${campaignId}/import`, { method: 'POST', headers: { 'content-type': 'application/x-ndjson', authorization: `Bearer ${token}` }, body: lines.join('\n') });
    expect(imported.status).toBe(200);
  }

  beforeAll(async () => {
    api = await startTestApi();
    const a = await signUp(api, 'board-a');
    const b = await signUp(api, 'board-b');
    const run = async (query: string, m: unknown, token: string) => {
      const res = await api.gql<any>(query, { m }, token);
      if (res.errors) throw new Error(JSON.stringify(res.errors));
      return res.data;
    };
    await run(REGISTER_BENCHMARK, benchmarkManifest({ id: 'board', visibility: 'public', groups: [2, 2, 2] }), a.token);
    await run(REGISTER_BENCHMARK, benchmarkManifest({ id: 'hidden-board', visibility: 'private' }), a.token);
    await run(REGISTER_AGENT, agentManifest({ name: 'alpha' }), a.token);
    await run(REGISTER_AGENT, agentManifest({ name: 'beta' }), b.token);
    publicCampaign = (await run(CREATE, { ...campaignManifest({ benchmark: 'board', agent: 'alpha', repetitions: 2 }), visibility: 'public' }, a.token)).createCampaign.id;
    const privateCampaign = (await run(CREATE, campaignManifest({ benchmark: 'board', agent: 'beta' }), b.token)).createCampaign.id;
    await fillCampaign(a.token, publicCampaign, 3, 1.5);
    await fillCampaign(b.token, privateCampaign, 1, 0.1);
  });
  afterAll(() => api.close());

  const BOARD = `query($b: String!) { leaderboard(benchmark: $b) { benchmark version rows {
    agent mode n resolved taskPass taskPassLow taskPassHigh testPass meanMinutes meanCostUsd totalCostUsd costPerResolvedUsd infraFailed onParetoFront campaigns { id } } } }`;

  it('anonymous callers see public campaigns only; a private campaign never leaks into the board', async () => {
    const res = await api.gql<any>(BOARD, { b: 'board' });
    expect(res.errors).toBeUndefined();
    expect(res.data.leaderboard.rows.map((r: any) => [r.agent, r.mode])).toEqual(
      expect.arrayContaining([['alpha', 'concurrent'], ['alpha', 'sequential']]),
    );
    expect(res.data.leaderboard.rows.some((r: any) => r.agent === 'beta')).toBe(false);
    expect(res.data.leaderboard.rows.every((r: any) => r.campaigns.length === 1 && r.campaigns[0].id === publicCampaign)).toBe(true);
  });

  it('every figure equals libs/metrics on the public campaign\'s exported records', async () => {
    const records = parseExecutionRecords(await (await fetch(`${api.url}/v1/campaigns/${publicCampaign}/export`)).text()).records;
    const byMode = (mode: string) => summariseOutcomes(records.filter((r) => r.mode === mode).map(toMetricsExecution));
    const rows = (await api.gql<any>(BOARD, { b: 'board' })).data.leaderboard.rows;
    for (const row of rows) {
      const s = byMode(row.mode);
      expect(row).toMatchObject({
        n: s.n, resolved: s.resolved, taskPass: s.taskPass, taskPassLow: s.taskPassInterval!.lower, taskPassHigh: s.taskPassInterval!.upper,
        testPass: s.testPass, meanMinutes: s.minutes, meanCostUsd: s.costUsd, costPerResolvedUsd: s.costPerSolved, infraFailed: s.infraFailed,
      });
      expect(row.totalCostUsd).toBeCloseTo(s.costUsd! * s.n, 9);
    }
    const front = paretoFront(rows.map((r: any) => ({ cost: r.meanCostUsd, pass: r.taskPass })));
    expect(rows.map((r: any) => r.onParetoFront)).toEqual(front);
  });

  it('lists the benchmarks that have public boards, never a private one', async () => {
    const res = await api.gql<any>('query { publicBenchmarks { key version } }');
    expect(res.errors).toBeUndefined();
    const keys = res.data.publicBenchmarks.map((b: any) => b.key);
    expect(keys).toContain('board');
    expect(keys).not.toContain('hidden-board');
  });

  it('a private or unknown benchmark has no public board (NOT_FOUND)', async () => {
    expect(codeOf(await api.gql(BOARD, { b: 'hidden-board' }))).toBe('NOT_FOUND');
    expect(codeOf(await api.gql(BOARD, { b: 'nope' }))).toBe('NOT_FOUND');
  });
});
