import { ResultsCache } from '#libs/campaigns';
import { parseExecutionRecords, toMetricsExecution, type ExecutionRecord } from '#libs/contracts';
import { buildComparison, buildDelegationView, buildReport, type Comparison } from '#libs/metrics';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeOf, createKey, signUp, startTestApi, type TestApi } from '../support/api.js';
import { createCampaignFixture, jsonl, recordFor, type CampaignFixture } from '../support/campaign-fixture.js';

const INTERVAL = 'n mean lower upper resamples';
const AB = 'a b';
const PAIR = 'subject campaignId benchmark suite task repetition executionA executionB';
const FIELDS = `by sideA sideB resamples seed
  inputs { executions subjects benchmarks pairs unpaired duplicates }
  family { correction family description m }
  benchmarks { subject benchmark n { ${AB} } resolved { ${AB} } taskPass { ${AB} } testPass { ${AB} } shellCalls { ${AB} } minutes { ${AB} }
    tokensMillions { ${AB} } costUsd { ${AB} } tokensPerSolved { ${AB} } costPerSolved { ${AB} } infraFailed { ${AB} } noTests { ${AB} }
    pairs b c pUnadjusted successRule uniqueA uniqueB bothSolved aFaster aFasterShare aFaster20 aFaster20Share benefitPairs testPassDifference { ${INTERVAL} } }
  tests { subject benchmark pairs b c p log10P pAdjusted testPassDifference { ${INTERVAL} } }
  discordantPairs { ${PAIR} resolvedBy }
  benefitPairs { ${PAIR} reasons }
  differenceBySize { benchmark medianReferenceKloc subjects differencePp }`;
const COMPARISON = `query($c: ID, $cfg: ID, $family: ComparisonFamily, $resamples: Int) {
  comparison(campaign: $c, agentConfig: $cfg, family: $family, resamples: $resamples, seed: 3) { ${FIELDS} } }`;
const DELEGATION = `query($c: ID!) { delegation(campaign: $c, permutations: 500, seed: 2) {
  mode permutations seed family { correction description m }
  rows { agent benchmark mode difficulty n meanCreated meanPeak medianOverlapRatio medianFirstSpawnPosition medianFirstOverlapPosition medianLastEndPosition neverOverlapping neverOverlappingRate }
  neverOverlapping { agent mode n neverOverlapping rate }
  spearman { agent benchmark variable n rho p pAdjusted } } }`;

/** The server's comparison minus what only the server knows (execution ids, campaign), in the libs/metrics shape. */
function comparable(server: any): unknown {
  const strip = ({ executionA, executionB, campaignId, ...rest }: any) => rest;
  return {
    sideA: server.sideA,
    sideB: server.sideB,
    inputs: server.inputs,
    family: { ...server.family, family: server.family.family === 'POOLED' ? 'pooled' : 'perBenchmark' },
    benchmarks: server.benchmarks,
    tests: server.tests,
    discordantPairs: server.discordantPairs.map(strip),
    benefitPairs: server.benefitPairs.map(strip),
    differenceBySize: server.differenceBySize.map(({ subjects, ...rest }: any) => ({ ...rest, agents: subjects })),
  };
}

function offlineComparable(c: Comparison): unknown {
  const strip = ({ executionA, executionB, group, ...rest }: any) => rest;
  return JSON.parse(
    JSON.stringify({
      sideA: c.sideA,
      sideB: c.sideB,
      inputs: c.inputs,
      family: { ...c.family },
      benchmarks: c.benchmarks,
      tests: c.tests,
      discordantPairs: c.discordantPairs.map(strip),
      benefitPairs: c.benefitPairs.map(strip),
      differenceBySize: c.differenceBySize,
    }),
  );
}

/** Comparison, delegation and failure views: libs/metrics on the stored results, visibility enforced, cached until a result changes. */
describe('results views', () => {
  let api: TestApi;
  let owner: { token: string; orgId: string };
  let key: string;
  let campaign: CampaignFixture;
  let publicCampaign: CampaignFixture;
  let records: ExecutionRecord[];

  const importRecords = async (campaignId: string, lines: ExecutionRecord[]) => {
    const res = await fetch(`${api.url}/v1/campaigns/${campaignId}/import`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson', authorization: `Bearer ${key}` },
      body: jsonl(lines),
    });
    expect(res.status).toBe(200);
  };
  const exported = async (campaignId: string) =>
    parseExecutionRecords(await (await fetch(`${api.url}/v1/campaigns/${campaignId}/export`, { headers: { authorization: `Bearer ${key}` } })).text()).records;

  beforeAll(async () => {
    api = await startTestApi();
    owner = await signUp(api, 'views-owner');
    key = (await createKey(api, owner.token, 'MEMBER')).key;
    campaign = await createCampaignFixture(api.db.dataSource, { orgId: owner.orgId, name: 'private views' });
    // Resolutions that make b and c differ by agent: codex resolves more concurrently, claude sequentially.
    records = campaign.units.map((unit, i) => {
      const resolved = unit.agent === 'codex' ? unit.mode === 'concurrent' || i % 3 === 0 : unit.mode === 'sequential' && i % 2 === 0;
      return recordFor(unit, i, { resolved, testsPassed: resolved ? 10 : i % 7, testsTotal: 10, ...(i === 5 ? { outcome: 'infra_failed' as const } : {}) });
    });
    await importRecords(campaign.campaignId, records);
    // The same agent configs run again in a second, public campaign.
    const reuseVersions = Object.fromEntries(
      (await api.db.dataSource.query('SELECT DISTINCT agent_name, agent_config_version_id FROM executions WHERE campaign_id = $1', [campaign.campaignId])).map(
        (r: { agent_name: string; agent_config_version_id: string }) => [r.agent_name, r.agent_config_version_id],
      ),
    );
    publicCampaign = await createCampaignFixture(api.db.dataSource, { orgId: owner.orgId, name: 'public views', reuseVersions });
    await api.db.dataSource.query(`UPDATE campaigns SET visibility = 'public' WHERE id = $1`, [publicCampaign.campaignId]);
    await importRecords(publicCampaign.campaignId, publicCampaign.units.map((unit, i) => recordFor(unit, i + 1, { resolved: i % 2 === 0, testsPassed: 10, testsTotal: 10 })));
  });
  afterAll(() => api.close());

  it('GraphQL comparison equals libs/metrics on the exported records, and its ids link to the right executions', async () => {
    const res = await api.gql<any>(COMPARISON, { c: campaign.campaignId, resamples: 2_000 }, key);
    expect(res.errors).toBeUndefined();
    const server = res.data.comparison;
    const offline = buildComparison((await exported(campaign.campaignId)).map(toMetricsExecution), { by: 'mode', modeA: 'concurrent', modeB: 'sequential' }, { resamples: 2_000, seed: 3 });
    expect(comparable(server)).toEqual(offlineComparable(offline));
    expect(server.tests.length).toBe(2);
    expect(server.family.description).toMatch(/one test per agent, pooling all benchmarks/);
    expect(server.discordantPairs.length).toBeGreaterThan(0);
    const byId = new Map(campaign.units.map((u) => [u.id, u]));
    for (const pair of [...server.discordantPairs, ...server.benefitPairs]) {
      const a = byId.get(pair.executionA)!;
      const b = byId.get(pair.executionB)!;
      expect(pair.campaignId).toBe(campaign.campaignId);
      expect([a.mode, b.mode]).toEqual(['concurrent', 'sequential']);
      expect([a.agent, a.task, a.repetition]).toEqual([pair.subject, pair.task, pair.repetition]);
      expect([b.agent, b.task, b.repetition]).toEqual([pair.subject, pair.task, pair.repetition]);
    }
  });

  it("the comparison's Table 2 and McNemar figures are the report's, number for number", async () => {
    const [cmp, rep] = await Promise.all([
      api.gql<any>(COMPARISON, { c: campaign.campaignId, resamples: 100 }, key),
      api.gql<any>('query($id: ID!) { campaignReport(id: $id, permutations: 100) }', { id: campaign.campaignId }, key),
    ]);
    const report = rep.data.campaignReport;
    for (const row of cmp.data.comparison.benchmarks) {
      const a = report.outcomes.find((o: any) => o.agent === row.subject && o.benchmark === row.benchmark && o.mode === 'concurrent');
      const b = report.outcomes.find((o: any) => o.agent === row.subject && o.benchmark === row.benchmark && o.mode === 'sequential');
      for (const k of ['n', 'taskPass', 'testPass', 'shellCalls', 'minutes', 'tokensMillions', 'costUsd', 'infraFailed']) expect(row[k]).toEqual({ a: a[k], b: b[k] });
    }
    expect(cmp.data.comparison.tests.map(({ subject, b, c, p, pAdjusted }: any) => ({ agent: subject, b, c, p, pAdjusted }))).toEqual(
      report.mcnemar.map(({ agent, b, c, p, pAdjusted }: any) => ({ agent, b, c, p, pAdjusted })),
    );
  });

  it('the per-benchmark family and the cross-agent comparison are libs/metrics too', async () => {
    const records = (await exported(campaign.campaignId)).map(toMetricsExecution);
    const per = await api.gql<any>(COMPARISON, { c: campaign.campaignId, family: 'PER_BENCHMARK', resamples: 100 }, key);
    expect(comparable(per.data.comparison)).toEqual(
      offlineComparable(buildComparison(records, { by: 'mode', modeA: 'concurrent', modeB: 'sequential' }, { family: 'perBenchmark', resamples: 100, seed: 3 })),
    );
    const agents = await api.gql<any>(
      `query($c: ID!) { agentComparison(campaign: $c, agentA: "codex", agentB: "claude", mode: "concurrent", resamples: 100, seed: 3) { ${FIELDS} } }`,
      { c: campaign.campaignId },
      key,
    );
    expect(agents.errors).toBeUndefined();
    expect(comparable(agents.data.agentComparison)).toEqual(
      offlineComparable(buildComparison(records, { by: 'agent', agentA: 'codex', agentB: 'claude', mode: 'concurrent' }, { resamples: 100, seed: 3 })),
    );
    expect(agents.data.agentComparison.inputs.subjects).toEqual(['concurrent']);
  });

  it('an agent config is compared across its campaigns, pairs kept inside each campaign, one row per config version', async () => {
    const [{ id: configId }] = await api.db.dataSource.query(
      `SELECT c.id FROM agent_configs c JOIN agent_config_versions v ON v.agent_config_id = c.id JOIN executions e ON e.agent_config_version_id = v.id
        WHERE e.campaign_id = $1 AND e.agent_name = 'codex' LIMIT 1`,
      [campaign.campaignId],
    );
    const res = await api.gql<any>(COMPARISON, { cfg: configId, resamples: 100 }, key);
    expect(res.errors).toBeUndefined();
    const cmp = res.data.comparison;
    expect(cmp.inputs.subjects).toEqual(['codex v1']);
    const campaignsOf = new Set([...cmp.discordantPairs, ...cmp.benefitPairs].map((p: any) => p.campaignId));
    expect([...campaignsOf].every((id) => id === campaign.campaignId || id === publicCampaign.campaignId)).toBe(true);
    // Pairs within each campaign only: the two campaigns' pairs add up.
    const single = async (c: string) => (await api.gql<any>(COMPARISON, { c, resamples: 100 }, key)).data.comparison.tests.find((t: any) => t.subject === 'codex').pairs;
    expect(cmp.tests[0].pairs).toBe((await single(campaign.campaignId)) + (await single(publicCampaign.campaignId)));
  });

  it('the delegation view is the report\'s delegation section', async () => {
    const res = await api.gql<any>(DELEGATION, { c: campaign.campaignId }, key);
    expect(res.errors).toBeUndefined();
    const offline = buildDelegationView((await exported(campaign.campaignId)).map(toMetricsExecution), 'concurrent', 500, 2);
    const view = res.data.delegation;
    expect(view.family).toEqual({ correction: offline.spearmanFamily.correction, description: offline.spearmanFamily.description, m: offline.spearmanFamily.m });
    expect(view.rows.map((r: any) => ({ ...r, difficulty: r.difficulty.toLowerCase() }))).toEqual(JSON.parse(JSON.stringify(offline.delegation)));
    expect(view.spearman).toEqual(JSON.parse(JSON.stringify(offline.spearman)));
    expect(view.neverOverlapping).toEqual(JSON.parse(JSON.stringify(offline.neverOverlapping)));
    const report = buildReport((await exported(campaign.campaignId)).map(toMetricsExecution), { permutations: 500, seed: 2 });
    expect(JSON.parse(JSON.stringify(report.spearman))).toEqual(view.spearman);
  });

  it('the failure view is empty and says why until annotations exist', async () => {
    const res = await api.gql<any>('query($c: ID!) { failures(campaign: $c) { available reason annotatedExecutions distribution { key } pooledKappa } }', { c: campaign.campaignId }, key);
    expect(res.data.failures).toMatchObject({ available: false, annotatedExecutions: 0, distribution: [], pooledKappa: null });
    expect(res.data.failures.reason).toMatch(/annotat/);
  });

  it('a private campaign or agent config is NOT_FOUND to other orgs and anonymous callers in every view; a public one is open', async () => {
    const outsider = await signUp(api, 'views-outsider');
    const [{ id: configId }] = await api.db.dataSource.query(
      `SELECT v.agent_config_id AS id FROM agent_config_versions v JOIN executions e ON e.agent_config_version_id = v.id WHERE e.campaign_id = $1 LIMIT 1`,
      [campaign.campaignId],
    );
    const privateQueries: [string, Record<string, unknown>][] = [
      [COMPARISON, { c: campaign.campaignId, resamples: 10 }],
      [`query($c: ID!) { agentComparison(campaign: $c, agentA: "codex", agentB: "claude", mode: "concurrent", resamples: 10) { sideA } }`, { c: campaign.campaignId }],
      [DELEGATION, { c: campaign.campaignId }],
      ['query($c: ID!) { failures(campaign: $c) { available } }', { c: campaign.campaignId }],
      ['query($c: ID!) { campaignReport(id: $c, permutations: 10) }', { c: campaign.campaignId }],
    ];
    for (const token of [outsider.token, undefined]) {
      for (const [query, variables] of privateQueries) expect(codeOf(await api.gql(query, variables, token)), query.slice(0, 40)).toBe('NOT_FOUND');
      // The config ran in a public campaign too: outsiders see that campaign's pairs only, never the private one's.
      const viaConfig = await api.gql<any>(COMPARISON, { cfg: configId, resamples: 10 }, token);
      expect(viaConfig.errors).toBeUndefined();
      const seen = new Set([...viaConfig.data.comparison.discordantPairs, ...viaConfig.data.comparison.benefitPairs].map((p: any) => p.campaignId));
      expect(seen.has(campaign.campaignId)).toBe(false);
      const open = await api.gql<any>(COMPARISON, { c: publicCampaign.campaignId, resamples: 10 }, token);
      expect(open.errors).toBeUndefined();
      expect(open.data.comparison.inputs.executions).toBe(publicCampaign.units.length);
    }
    // A config that ran only in private campaigns is NOT_FOUND to outsiders.
    await api.db.dataSource.query(`UPDATE campaigns SET visibility = 'private' WHERE id = $1`, [publicCampaign.campaignId]);
    try {
      expect(codeOf(await api.gql(COMPARISON, { cfg: configId, resamples: 10 }, outsider.token))).toBe('NOT_FOUND');
      expect(codeOf(await api.gql(COMPARISON, { cfg: '00000000-0000-4000-8000-000000000000', resamples: 10 }, owner.token))).toBe('NOT_FOUND');
    } finally {
      await api.db.dataSource.query(`UPDATE campaigns SET visibility = 'public' WHERE id = $1`, [publicCampaign.campaignId]);
    }
  });

  it('serves a repeated view from the cache, recomputes after a result changes, and not after a heartbeat', async () => {
    const cache = api.app.get(ResultsCache);
    const query = (resamples: number) => api.gql<any>(COMPARISON, { c: campaign.campaignId, resamples }, key);
    const first = await query(321);
    const before = cache.stats();
    const again = await query(321);
    expect(again.data).toEqual(first.data);
    expect(cache.stats().hits).toBe(before.hits + 1);
    expect(cache.stats().misses).toBe(before.misses);

    // Status and heartbeat moves are not results: the stamp stays, the cache still answers.
    await api.db.dataSource.query(`UPDATE executions SET heartbeat_at = now(), status = status WHERE campaign_id = $1`, [campaign.campaignId]);
    await query(321);
    expect(cache.stats().misses).toBe(before.misses);

    // One result flips: the next answer is recomputed and shows it.
    const unit = campaign.units.find((u) => u.agent === 'claude' && u.mode === 'concurrent')!;
    const [{ resolved }] = await api.db.dataSource.query('SELECT resolved FROM executions WHERE id = $1', [unit.id]);
    await api.db.dataSource.query(`UPDATE executions SET resolved = NOT resolved, tests_passed = tests_total WHERE id = $1`, [unit.id]);
    const after = await query(321);
    expect(cache.stats().misses).toBe(before.misses + 1);
    const claude = (r: any) => r.data.comparison.tests.find((t: any) => t.subject === 'claude');
    expect(claude(after).b - claude(after).c).not.toBe(claude(first).b - claude(first).c);
    const offline = buildComparison((await exported(campaign.campaignId)).map(toMetricsExecution), { by: 'mode', modeA: 'concurrent', modeB: 'sequential' }, { resamples: 321, seed: 3 });
    expect(comparable(after.data.comparison)).toEqual(offlineComparable(offline));
    await api.db.dataSource.query('UPDATE executions SET resolved = $2 WHERE id = $1', [unit.id, resolved]);
  });

  it('refuses bad arguments, naming the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ c: campaign.campaignId, resamples: 0 }, 'resamples'],
      [{ c: campaign.campaignId, cfg: campaign.campaignId, resamples: 10 }, 'campaign'],
      [{ resamples: 10 }, 'campaign'],
    ];
    for (const [variables, field] of cases) {
      const res = await api.gql(COMPARISON, variables, key);
      expect(res.errors![0]!.extensions, JSON.stringify(variables)).toMatchObject({ code: 'BAD_USER_INPUT', field });
    }
    const same = await api.gql('query($c: ID!) { comparison(campaign: $c, modeA: "x", modeB: "x") { sideA } }', { c: campaign.campaignId }, key);
    expect(same.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'modeB' });
    const agents = await api.gql('query($c: ID!) { agentComparison(campaign: $c, agentA: "x", agentB: "x", mode: "m") { sideA } }', { c: campaign.campaignId }, key);
    expect(agents.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'agentB' });
  });

  it('refuses abusive queries (many aliased views, nested pages) by complexity, before computing anything', async () => {
    const cache = api.app.get(ResultsCache);
    const before = cache.stats();
    const aliases = Array.from({ length: 25 }, (_, i) => `v${i}: comparison(campaign: $c, seed: ${i}) { sideA }`).join('\n');
    const wide = await api.gql(`query($c: ID) { ${aliases} }`, { c: publicCampaign.campaignId });
    expect(wide.errors?.[0]?.message).toMatch(/complexity/i);
    // Nested pages multiply: 100 executions x 100 events x the payload's cost is far over the limit.
    const nested = await api.gql(
      `query($c: ID!) { executions(first: 100, filter: { campaignId: $c }) { nodes { id events(first: 100) { nodes { seq payload } } } } }`,
      { c: publicCampaign.campaignId },
    );
    expect(nested.errors?.[0]?.extensions?.code).toBe('QUERY_TOO_COMPLEX');
    expect(nested.data).toBeNull();
    expect(cache.stats()).toEqual(before);
  });
});
