import { ResultsCache } from '#libs/campaigns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeOf, createKey, signUp, startTestApi, type TestApi } from '../support/api.js';
import { CREATE, REGISTER_AGENT, REGISTER_BENCHMARK, agentManifest, benchmarkManifest, campaignManifest } from '../support/manifests.js';

const BOARD = `query($b: String!) { leaderboard(benchmark: $b) { benchmark version rows { agent mode n resolved taskPass campaigns { id name } } } }`;
const COMPARISON = `query($c: ID!) { comparison(campaign: $c, resamples: 200, seed: 5) {
  sideA sideB inputs { executions pairs }
  benchmarks { subject benchmark resolved { a b } taskPass { a b } pairs b c }
  tests { subject b c p pAdjusted }
  benefitPairs { subject task repetition executionA executionB reasons } } }`;

type Outcome = 'hit' | 'miss' | 'stale';

/**
 * The whole-response cache of the results views (graphql/response-cache.plugin.ts): a repeated anonymous view is
 * answered from it, exactly as fresh as the view cache, never across callers, never for anything but views.
 */
describe('results response cache', () => {
  let api: TestApi;
  let a: { token: string; orgId: string };
  let b: { token: string; orgId: string };
  let keyA: string;
  let publicCampaign: string;
  let privateCampaign: string;

  /** The response cache's lookup counters, as Prometheus exposes them. */
  async function lookups(): Promise<Record<Outcome, number>> {
    const text = await (await fetch(`${api.url}/metrics`)).text();
    const read = (outcome: Outcome) => Number(new RegExp(`^fanout_graphql_response_cache_lookups_total\\{outcome="${outcome}"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
    return { hit: read('hit'), miss: read('miss'), stale: read('stale') };
  }
  const delta = (before: Record<Outcome, number>, after: Record<Outcome, number>) => ({ hit: after.hit - before.hit, miss: after.miss - before.miss, stale: after.stale - before.stale });

  /** The response body as sent. */
  async function raw(query: string, variables: Record<string, unknown>, token?: string): Promise<string> {
    const res = await fetch(`${api.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ query, variables }),
    });
    return res.text();
  }

  async function fill(token: string, campaignId: string) {
    const res = await api.gql<any>(
      'query($f: ExecutionFilterInput) { executions(filter: $f, first: 100) { nodes { agentName model mode benchmark suite task difficulty repetition } } }',
      { f: { campaignId } },
      token,
    );
    const lines = res.data.executions.nodes.map((n: any, i: number) => {
      const resolved = n.mode === 'concurrent' ? i % 3 !== 0 : i % 2 === 0;
      const start = Date.UTC(2026, 0, 1, 10) + i * 60_000;
      return JSON.stringify({
        agent: n.agentName, model: n.model, benchmark: n.benchmark, suite: n.suite, task: n.task, difficulty: n.difficulty.toLowerCase(), mode: n.mode, repetition: n.repetition,
        outcome: 'completed', testsPassed: resolved ? 10 : 4, testsTotal: 10, resolved, wallSeconds: 600 + i, shellCalls: 20,
        usage: { inputTokens: 1_000_000, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 50_000, reasoningTokens: 0 },
        costUsd: 1.25,
        agents: [{ id: 'main', parentId: null, start: new Date(start).toISOString(), end: new Date(start + 600_000).toISOString() }],
      });
    });
    const imported = await fetch(`${api.url}/v1/campaigns/${campaignId}/import`, { method: 'POST', headers: { 'content-type': 'application/x-ndjson', authorization: `Bearer ${token}` }, body: lines.join('\n') });
    expect(imported.status).toBe(200);
  }

  beforeAll(async () => {
    api = await startTestApi();
    a = await signUp(api, 'cache-a');
    b = await signUp(api, 'cache-b');
    keyA = (await createKey(api, a.token, 'MEMBER')).key;
    const run = async (query: string, m: unknown, token: string) => {
      const res = await api.gql<any>(query, { m }, token);
      if (res.errors) throw new Error(JSON.stringify(res.errors));
      return res.data;
    };
    await run(REGISTER_BENCHMARK, benchmarkManifest({ id: 'cache-board', visibility: 'public', groups: [3, 3, 3] }), a.token);
    await run(REGISTER_AGENT, agentManifest({ name: 'alpha' }), a.token);
    publicCampaign = (await run(CREATE, { ...campaignManifest({ benchmark: 'cache-board', agent: 'alpha', repetitions: 2 }), visibility: 'public' }, a.token)).createCampaign.id;
    privateCampaign = (await run(CREATE, campaignManifest({ benchmark: 'cache-board', agent: 'alpha' }), a.token)).createCampaign.id;
    await fill(a.token, publicCampaign);
    await fill(a.token, privateCampaign);
  });
  afterAll(() => api.close());

  it('answers a repeated anonymous leaderboard and comparison from the stored response, without running a resolver', async () => {
    const views = api.app.get(ResultsCache);
    for (const [query, variables] of [[BOARD, { b: 'cache-board' }], [COMPARISON, { c: publicCampaign }]] as const) {
      const first = await api.gql<any>(query, variables);
      expect(first.errors).toBeUndefined();
      const before = await lookups();
      const viewsBefore = views.stats();
      const again = await api.gql<any>(query, variables);
      expect(again).toEqual(first);
      expect(delta(before, await lookups())).toEqual({ hit: 1, miss: 0, stale: 0 });
      // Not even the view cache was asked: the operation did not execute.
      expect(views.stats()).toEqual(viewsBefore);
      // Byte for byte what an executed answer is (an authenticated caller's is never from this cache).
      const [stored, executed] = await Promise.all([raw(query, variables), raw(query, variables, keyA)]);
      expect(stored).toBe(executed);
    }
    // Other variables are another operation.
    const before = await lookups();
    const other = await api.gql<any>(COMPARISON.replace('seed: 5', 'seed: 6'), { c: publicCampaign });
    expect(other.errors).toBeUndefined();
    expect(delta(before, await lookups())).toEqual({ hit: 0, miss: 1, stale: 0 });
  });

  it('after an execution\'s result changes, the next answer shows it', async () => {
    const board = async () => (await api.gql<any>(BOARD, { b: 'cache-board' })).data.leaderboard;
    const comparison = async () => (await api.gql<any>(COMPARISON, { c: publicCampaign })).data.comparison;
    const resolvedOf = (lb: any) => lb.rows.find((r: any) => r.mode === 'concurrent').resolved;
    const [boardBefore, cmpBefore] = [await board(), await comparison()];
    await board();
    await comparison(); // both stored and served

    const [{ id, resolved }] = await api.db.dataSource.query(`SELECT id, resolved FROM executions WHERE campaign_id = $1 AND mode = 'concurrent' ORDER BY id LIMIT 1`, [publicCampaign]);
    await api.db.dataSource.query('UPDATE executions SET resolved = NOT resolved WHERE id = $1', [id]);
    try {
      const before = await lookups();
      const [boardAfter, cmpAfter] = [await board(), await comparison()];
      expect(delta(before, await lookups())).toEqual({ hit: 0, miss: 0, stale: 2 });
      const step = resolved ? -1 : 1;
      expect(resolvedOf(boardAfter)).toBe(resolvedOf(boardBefore) + step);
      expect(cmpAfter.benchmarks[0].resolved.a).toBe(cmpBefore.benchmarks[0].resolved.a + step);
      // The same answer as an authenticated caller gets (never from the response cache).
      expect((await api.gql<any>(COMPARISON, { c: publicCampaign }, keyA)).data.comparison).toEqual(cmpAfter);
      // And stored again: the next one is a hit with the new figures.
      const again = await lookups();
      expect(await comparison()).toEqual(cmpAfter);
      expect(delta(again, await lookups())).toEqual({ hit: 1, miss: 0, stale: 0 });
    } finally {
      await api.db.dataSource.query('UPDATE executions SET resolved = $2 WHERE id = $1', [id, resolved]);
    }
  });

  it("never serves an org's private view to another org or to anonymous callers; a campaign hidden since is NOT_FOUND", async () => {
    const own = await api.gql<any>(COMPARISON, { c: privateCampaign }, keyA);
    expect(own.errors).toBeUndefined();
    const before = await lookups();
    expect((await api.gql<any>(COMPARISON, { c: privateCampaign }, keyA)).data).toEqual(own.data);
    // Authenticated callers are answered by the resolvers (the guard decides who they are): no lookup at all.
    expect(delta(before, await lookups())).toEqual({ hit: 0, miss: 0, stale: 0 });
    for (const token of [b.token, undefined]) expect(codeOf(await api.gql(COMPARISON, { c: privateCampaign }, token)), token ? 'org B' : 'anonymous').toBe('NOT_FOUND');
    // Twice anonymous: a NOT_FOUND is never stored either.
    expect(codeOf(await api.gql(COMPARISON, { c: privateCampaign }))).toBe('NOT_FOUND');

    // A public campaign's stored answer goes when the campaign stops being public, also where it came in through its agent config.
    const [{ id: configId }] = await api.db.dataSource.query(`SELECT id FROM agent_configs WHERE org_id = $1 AND name = 'alpha'`, [a.orgId]);
    const viaConfig = 'query($cfg: ID!) { comparison(agentConfig: $cfg, resamples: 200) { inputs { executions } } }';
    const openly = await api.gql<any>(viaConfig, { cfg: configId });
    expect(openly.errors).toBeUndefined();
    await api.gql(COMPARISON, { c: publicCampaign });
    const stored = await lookups();
    expect((await api.gql<any>(viaConfig, { cfg: configId })).data).toEqual(openly.data);
    expect(delta(stored, await lookups())).toEqual({ hit: 1, miss: 0, stale: 0 });
    await api.db.dataSource.query(`UPDATE campaigns SET visibility = 'private' WHERE id = $1`, [publicCampaign]);
    try {
      const hidden = await lookups();
      expect(codeOf(await api.gql(COMPARISON, { c: publicCampaign }))).toBe('NOT_FOUND');
      expect(codeOf(await api.gql(viaConfig, { cfg: configId }))).toBe('NOT_FOUND');
      expect(delta(hidden, await lookups())).toEqual({ hit: 0, miss: 0, stale: 2 });
      expect(codeOf(await api.gql(COMPARISON, { c: publicCampaign }, b.token))).toBe('NOT_FOUND');
    } finally {
      await api.db.dataSource.query(`UPDATE campaigns SET visibility = 'public' WHERE id = $1`, [publicCampaign]);
    }
  });

  it('never caches a mutation, or a query mixing a view with any other field', async () => {
    const operations: [string, Record<string, unknown>][] = [
      ['mutation { __typename }', {}],
      ['query($b: String!) { leaderboard(benchmark: $b) { version } me { role } }', { b: 'cache-board' }],
      ['query($b: String!, $c: ID!) { leaderboard(benchmark: $b) { version } campaign(id: $c) { id name } }', { b: 'cache-board', c: publicCampaign }],
      ['query($b: String!, $c: ID!) { ...F } fragment F on Query { leaderboard(benchmark: $b) { version } campaign(id: $c) { id } }', { b: 'cache-board', c: publicCampaign }],
    ];
    const views = api.app.get(ResultsCache);
    for (const [query, variables] of operations) {
      const before = await lookups();
      const viewsBefore = views.stats();
      await api.gql(query, variables);
      await api.gql(query, variables);
      expect(delta(before, await lookups()), query).toEqual({ hit: 0, miss: 0, stale: 0 });
      // Both ran their resolvers: the leaderboard asked the view cache twice.
      const asked = (s: { hits: number; misses: number }) => s.hits + s.misses;
      expect(asked(views.stats()) - asked(viewsBefore), query).toBe(query.includes('leaderboard') ? 2 : 0);
    }
  });

  it('a newly registered public benchmark version changes the next leaderboard answer', async () => {
    await api.gql(BOARD, { b: 'cache-board' });
    const stored = await api.gql<any>(BOARD, { b: 'cache-board' });
    expect(stored.data.leaderboard.version).toBe('1.0.0');
    expect(stored.data.leaderboard.rows.length).toBeGreaterThan(0);
    const res = await api.gql<any>(REGISTER_BENCHMARK, { m: benchmarkManifest({ id: 'cache-board', version: '1.1.0', visibility: 'public', groups: [3, 3, 3] }) }, a.token);
    expect(res.errors).toBeUndefined();
    const before = await lookups();
    const next = await api.gql<any>(BOARD, { b: 'cache-board' });
    expect(delta(before, await lookups())).toEqual({ hit: 0, miss: 0, stale: 1 });
    expect(next.data.leaderboard).toEqual({ benchmark: 'cache-board', version: '1.1.0', rows: [] });
  });
});
