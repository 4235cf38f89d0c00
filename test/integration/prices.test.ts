import { normaliseUsage, type DisjointUsage } from '#libs/metrics';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JWT_TEST_SECRET, codeOf, createKey, signUp, startTestApi, type TestApi } from '../support/api.js';
import { createCampaignFixture, type CampaignFixture } from '../support/campaign-fixture.js';
import { requireBuild, runCli } from '../support/processes.js';

const PRICE_FIELDS = 'id scope model effectiveFrom inputUsdPerMTok cacheReadUsdPerMTok cacheWriteUsdPerMTok outputUsdPerMTok note inForce';
const SET = `mutation($i: SetModelPriceInput!) { setModelPrice(input: $i) { ${PRICE_FIELDS} } }`;
const LIST = `query($m: String, $h: Boolean) { modelPrices(model: $m, includeHistory: $h) { ${PRICE_FIELDS} } }`;
const RECOMPUTE = 'mutation($c: ID!) { recomputeCampaignCosts(campaign: $c) { id campaignId calls changedCalls unpricedCalls beforeUsd afterUsd createdAt } }';

interface Price {
  id: string;
  scope: 'PLATFORM' | 'ORG';
  model: string;
  effectiveFrom: string;
  inputUsdPerMTok: number;
  cacheReadUsdPerMTok: number;
  cacheWriteUsdPerMTok: number;
  outputUsdPerMTok: number;
  note: string | null;
  inForce: boolean;
}

const price = (model: string, scope: 'ORG' | 'PLATFORM', usd: [number, number, number, number], extra: Record<string, unknown> = {}) => ({
  i: { model, scope, inputUsdPerMTok: usd[0], cacheReadUsdPerMTok: usd[1], cacheWriteUsdPerMTok: usd[2], outputUsdPerMTok: usd[3], ...extra },
});

/** A platform default written straight into the table (as a seed would), possibly back-dated, which the API refuses. */
async function seedPlatformPrice(api: TestApi, model: string, effectiveFrom: Date, micros: [number, number, number, number]): Promise<string> {
  const id = randomUUID();
  await api.db.dataSource.query(
    `INSERT INTO model_prices (id, org_id, model, effective_from, input_micros_per_mtok, cache_read_micros_per_mtok, cache_write_micros_per_mtok, output_micros_per_mtok, note)
     VALUES ($1, NULL, $2, $3, $4, $5, $6, $7, 'seeded')`,
    [id, model, effectiveFrom, ...micros],
  );
  return id;
}

interface LedgerCall {
  executionId: string;
  attempt?: number;
  eventId?: string;
  model: string;
  time: Date;
  usage: DisjointUsage;
  costMicros: number;
  unpriced: boolean;
}

async function insertLedger(api: TestApi, orgId: string, campaignId: string, calls: LedgerCall[]): Promise<void> {
  for (const call of calls) {
    await api.db.dataSource.query(
      `INSERT INTO usage_ledger (execution_id, attempt, event_id, org_id, campaign_id, agent_config_version_id, agent_name, mode, agent_id, provider, model, call_time,
                                 uncached_input_tokens, cache_read_tokens, cache_write_tokens, output_tokens, reasoning_tokens, cost_micros, unpriced, price_id)
       SELECT x.id, $14, $2, $3, $4, x.agent_config_version_id, x.agent_name, x.mode, 'main', 'test', $5, $6, $7, $8, $9, $10, $11, $12, $13, NULL
         FROM executions x WHERE x.id = $1`,
      [
        call.executionId,
        call.eventId ?? randomUUID(),
        orgId,
        campaignId,
        call.model,
        call.time,
        call.usage.uncachedInput,
        call.usage.cacheRead,
        call.usage.cacheWrite,
        call.usage.output,
        call.usage.reasoning,
        call.costMicros,
        call.unpriced,
        call.attempt ?? 1,
      ],
    );
  }
}

describe('price book and cost recompute', () => {
  let api: TestApi;
  let a: Awaited<ReturnType<typeof signUp>>;
  let b: Awaited<ReturnType<typeof signUp>>;
  let root: { token: string; userId: string };
  let aMemberKey: string;
  let rootKey: string;

  beforeAll(async () => {
    api = await startTestApi();
    a = await signUp(api, 'alice');
    b = await signUp(api, 'bob');
    aMemberKey = (await createKey(api, a.token, 'MEMBER')).key;
    // The platform admin is made by the operator command, never through the API.
    requireBuild();
    const home = mkdtempSync(join(tmpdir(), 'fanout-prices-'));
    const email = `root-${process.pid}@example.test`;
    try {
      const created = await runCli(['--json', 'user', 'create', '--email', email, '--name', 'Root', '--platform-admin'], {
        DATABASE_URL: api.db.url,
        FANOUT_HOME: home,
        JWT_SECRET: JWT_TEST_SECRET,
        FANOUT_PASSWORD: 'root password 123',
        FANOUT_API_KEY: '',
        FANOUT_API: '',
      });
      expect(created.code, created.stderr).toBe(0);
      expect(JSON.parse(created.stdout)).toMatchObject({ email, platformAdmin: true });
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
    const login = await api.gql<{ login: { accessToken: string; user: { id: string } } }>(
      'mutation($i: LoginInput!) { login(input: $i) { accessToken user { id } } }',
      { i: { email, password: 'root password 123' } },
    );
    expect(login.errors).toBeUndefined();
    root = { token: login.data!.login.accessToken, userId: login.data!.login.user.id };
    rootKey = (await createKey(api, root.token, 'OWNER')).key;
  }, 120_000);
  afterAll(() => api?.close());

  describe('setting prices', () => {
    it('an org ADMIN sets its own price; a MEMBER cannot', async () => {
      const denied = await api.gql(SET, price('gpt-roles', 'ORG', [1, 0.1, 0, 4]), aMemberKey);
      expect(codeOf(denied)).toBe('FORBIDDEN');
      const set = await api.gql<{ setModelPrice: Price }>(SET, price('gpt-roles', 'ORG', [1, 0.1, 0, 4], { note: 'negotiated 2025' }), a.token);
      expect(set.errors).toBeUndefined();
      expect(set.data!.setModelPrice).toMatchObject({ scope: 'ORG', model: 'gpt-roles', inputUsdPerMTok: 1, cacheReadUsdPerMTok: 0.1, outputUsdPerMTok: 4, note: 'negotiated 2025', inForce: true });
      const [row] = await api.db.dataSource.query('SELECT org_id, input_micros_per_mtok::int AS input, cache_read_micros_per_mtok::int AS cr FROM model_prices WHERE id = $1', [set.data!.setModelPrice.id]);
      expect(row).toEqual({ org_id: a.orgId, input: 1_000_000, cr: 100_000 });
    });

    it('only a platform admin sets a PLATFORM price: not an org owner, not even the admin\'s API key', async () => {
      expect(codeOf(await api.gql(SET, price('gpt-platform', 'PLATFORM', [2, 0.2, 0, 8]), a.token))).toBe('FORBIDDEN');
      expect(codeOf(await api.gql(SET, price('gpt-platform', 'PLATFORM', [2, 0.2, 0, 8]), rootKey))).toBe('FORBIDDEN');
      const set = await api.gql<{ setModelPrice: Price }>(SET, price('gpt-platform', 'PLATFORM', [2, 0.2, 0, 8]), root.token);
      expect(set.errors).toBeUndefined();
      expect(set.data!.setModelPrice).toMatchObject({ scope: 'PLATFORM', inForce: true });
      const [row] = await api.db.dataSource.query('SELECT org_id FROM model_prices WHERE id = $1', [set.data!.setModelPrice.id]);
      expect(row).toEqual({ org_id: null });
    });

    it('refuses a back-dated price, naming effectiveFrom; a minute of clock skew is tolerated', async () => {
      const past = new Date(Date.now() - 3_600_000).toISOString();
      const res = await api.gql(SET, price('gpt-past', 'ORG', [1, 1, 1, 1], { effectiveFrom: past }), a.token);
      expect(codeOf(res)).toBe('BAD_USER_INPUT');
      expect(res.errors![0]!.extensions!.field).toBe('effectiveFrom');
      expect(res.errors![0]!.message).toMatch(/^effectiveFrom: expected now or a later time/);
      const skewed = await api.gql(SET, price('gpt-past', 'ORG', [1, 1, 1, 1], { effectiveFrom: new Date(Date.now() - 20_000).toISOString() }), a.token);
      expect(skewed.errors).toBeUndefined();
      const [{ n }] = await api.db.dataSource.query(`SELECT count(*)::int AS n FROM model_prices WHERE model = 'gpt-past'`);
      expect(n).toBe(1);
    });

    it('validates amounts and the model name, naming the field', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ inputUsdPerMTok: 0.1234567 }, 'inputUsdPerMTok'],
        [{ outputUsdPerMTok: 1e-7 }, 'outputUsdPerMTok'],
        [{ cacheReadUsdPerMTok: -1 }, 'cacheReadUsdPerMTok'],
        [{ cacheWriteUsdPerMTok: 2_000_000 }, 'cacheWriteUsdPerMTok'],
        [{ model: '' }, 'model'],
        [{ model: 'x'.repeat(201) }, 'model'],
        [{ model: '   ' }, 'model'],
      ];
      for (const [override, field] of cases) {
        const res = await api.gql(SET, { i: { ...price('gpt-valid', 'ORG', [1, 1, 1, 1]).i, ...override } }, a.token);
        expect(codeOf(res), field).toBe('BAD_USER_INPUT');
        expect(res.errors![0]!.message, field).toContain(field);
      }
      const [{ n }] = await api.db.dataSource.query(`SELECT count(*)::int AS n FROM model_prices WHERE model IN ('gpt-valid', '')`);
      expect(n).toBe(0);
    });

    it('stores dollars with 6 decimals as exact micro-dollars', async () => {
      const set = await api.gql<{ setModelPrice: Price }>(SET, price('gpt-exact', 'ORG', [0.000001, 1.1, 3.000003, 123456.789012]), a.token);
      expect(set.errors).toBeUndefined();
      const [row] = await api.db.dataSource.query(
        `SELECT input_micros_per_mtok::text AS i, cache_read_micros_per_mtok::text AS cr, cache_write_micros_per_mtok::text AS cw, output_micros_per_mtok::text AS o FROM model_prices WHERE id = $1`,
        [set.data!.setModelPrice.id],
      );
      expect(row).toEqual({ i: '1', cr: '1100000', cw: '3000003', o: '123456789012' });
      expect(set.data!.setModelPrice).toMatchObject({ inputUsdPerMTok: 0.000001, cacheReadUsdPerMTok: 1.1, cacheWriteUsdPerMTok: 3.000003, outputUsdPerMTok: 123456.789012 });
    });
  });

  describe('listing prices', () => {
    let overrideA: string;
    let overrideB: string;
    let current: string;
    let old: string;

    beforeAll(async () => {
      old = await seedPlatformPrice(api, 'gpt-list', new Date(Date.now() - 10 * 86_400_000), [5_000_000, 500_000, 0, 15_000_000]);
      current = await seedPlatformPrice(api, 'gpt-list', new Date(Date.now() - 86_400_000), [4_000_000, 400_000, 0, 12_000_000]);
      overrideA = (await api.gql<{ setModelPrice: Price }>(SET, price('gpt-list', 'ORG', [3, 0.3, 0, 9]), a.token)).data!.setModelPrice.id;
      overrideB = (await api.gql<{ setModelPrice: Price }>(SET, price('gpt-list', 'ORG', [1, 0.1, 0, 3], { note: 'B secret deal' }), b.token)).data!.setModelPrice.id;
    });

    it('shows the platform defaults and the caller\'s own overrides in force, with scheduled ones', async () => {
      const next = new Date(Date.now() + 86_400_000).toISOString();
      const scheduled = (await api.gql<{ setModelPrice: Price }>(SET, price('gpt-list', 'ORG', [2.5, 0.25, 0, 7.5], { effectiveFrom: next }), a.token)).data!.setModelPrice;
      expect(scheduled.inForce).toBe(false);
      const res = await api.gql<{ modelPrices: Price[] }>(LIST, { m: 'gpt-list' }, a.token);
      expect(res.errors).toBeUndefined();
      const byId = new Map(res.data!.modelPrices.map((p) => [p.id, p]));
      expect([...byId.keys()].sort()).toEqual([current, overrideA, scheduled.id].sort());
      expect(byId.get(current)).toMatchObject({ scope: 'PLATFORM', inForce: true, inputUsdPerMTok: 4, cacheReadUsdPerMTok: 0.4, outputUsdPerMTok: 12, note: 'seeded' });
      expect(byId.get(overrideA)).toMatchObject({ scope: 'ORG', inForce: true, inputUsdPerMTok: 3 });
      expect(byId.get(scheduled.id)).toMatchObject({ scope: 'ORG', inForce: false });
    });

    it('with history, shows older versions too, not in force', async () => {
      const res = await api.gql<{ modelPrices: Price[] }>(LIST, { m: 'gpt-list', h: true }, a.token);
      const ids = res.data!.modelPrices.map((p) => p.id);
      expect(ids).toContain(old);
      expect(res.data!.modelPrices.find((p) => p.id === old)).toMatchObject({ scope: 'PLATFORM', inForce: false, inputUsdPerMTok: 5 });
    });

    it('cross-tenant: org B never sees org A\'s override, with or without history, and A never sees B\'s', async () => {
      for (const h of [false, true]) {
        const asB = await api.gql<{ modelPrices: Price[] }>(LIST, { h }, b.token);
        const idsB = asB.data!.modelPrices.map((p) => p.id);
        expect(idsB).toContain(overrideB);
        expect(idsB).toContain(current);
        expect(idsB).not.toContain(overrideA);
        expect(asB.data!.modelPrices.filter((p) => p.scope === 'ORG').map((p) => p.id)).toEqual([overrideB]);
        const asA = await api.gql<{ modelPrices: Price[] }>(LIST, { h }, aMemberKey);
        const idsA = asA.data!.modelPrices.map((p) => p.id);
        expect(idsA).toContain(overrideA);
        expect(idsA).not.toContain(overrideB);
        expect(asA.data!.modelPrices.map((p) => p.note)).not.toContain('B secret deal');
      }
    });
  });

  describe('recomputeCampaignCosts', () => {
    let fixture: CampaignFixture;
    let platformGpt: string;
    let overrideGpt: Price;
    let platformClaude: Price;
    // OpenAI style: 1.2M input of which 1M cache reads; 50k output of which 20k reasoning.
    const openAi = normaliseUsage({ style: 'openai', inputTokens: 1_200_000, cachedInputTokens: 1_000_000, outputTokens: 50_000, reasoningTokens: 20_000 });
    // Anthropic style: cache reads and writes on top of 3k uncached input.
    const anthropic = normaliseUsage({ style: 'anthropic', inputTokens: 3_000, cacheReadInputTokens: 150_002, cacheCreationInputTokens: 20_000, outputTokens: 7_777 });

    beforeAll(async () => {
      expect(openAi).toEqual({ uncachedInput: 200_000, cacheRead: 1_000_000, cacheWrite: 0, output: 50_000, reasoning: 20_000 });
      expect(anthropic).toEqual({ uncachedInput: 3_000, cacheRead: 150_002, cacheWrite: 20_000, output: 7_777, reasoning: 0 });
      fixture = await createCampaignFixture(api.db.dataSource, {
        orgId: a.orgId,
        agents: [
          { name: 'codex', model: 'gpt-rc' },
          { name: 'claude', model: 'claude-rc' },
        ],
        modes: ['concurrent'],
        benchmarks: [{ key: 'bench', tasks: [{ key: 't1', difficulty: 'easy' }] }],
        repetitions: 1,
      });
      // In force from two days ago; the org's override (set now) takes over from now on.
      platformGpt = await seedPlatformPrice(api, 'gpt-rc', new Date(Date.now() - 2 * 86_400_000), [2_000_000, 500_000, 0, 8_000_000]);
      overrideGpt = (await api.gql<{ setModelPrice: Price }>(SET, price('gpt-rc', 'ORG', [1.25, 0.125, 0, 10]), a.token)).data!.setModelPrice;
      platformClaude = (await api.gql<{ setModelPrice: Price }>(SET, price('claude-rc', 'PLATFORM', [3, 0.3, 3.75, 15]), root.token)).data!.setModelPrice;
      const codex = fixture.units.find((u) => u.agent === 'codex')!.id;
      const claude = fixture.units.find((u) => u.agent === 'claude')!.id;
      const after = (p: Price) => new Date(Date.parse(p.effectiveFrom) + 1_000);
      const yesterday = new Date(Date.now() - 86_400_000);
      // Stale costs, as if recorded before these prices existed.
      await insertLedger(api, a.orgId, fixture.campaignId, [
        { executionId: codex, eventId: 'call-1', model: 'gpt-rc', time: after(overrideGpt), usage: openAi, costMicros: 100, unpriced: false },
        // The same event id in the execution's second attempt is another call, priced on its own.
        { executionId: codex, attempt: 2, eventId: 'call-1', model: 'gpt-rc', time: after(overrideGpt), usage: openAi, costMicros: 7, unpriced: false },
        { executionId: codex, model: 'gpt-rc', time: yesterday, usage: openAi, costMicros: 200, unpriced: false },
        { executionId: claude, model: 'claude-rc', time: after(platformClaude), usage: anthropic, costMicros: 0, unpriced: true },
        { executionId: claude, model: 'claude-rc', time: yesterday, usage: anthropic, costMicros: 50, unpriced: false },
        { executionId: claude, model: 'mystery-model', time: yesterday, usage: anthropic, costMicros: 0, unpriced: true },
      ]);
      await api.db.dataSource.query('UPDATE campaigns SET spent_micros = 357 WHERE id = $1', [fixture.campaignId]);
      await api.db.dataSource.query(`INSERT INTO org_spend (org_id, month, spent_micros) VALUES ($1, date_trunc('month', now() AT TIME ZONE 'UTC')::date, 357)`, [a.orgId]);
    });

    it('a MEMBER cannot recompute; org B gets NOT_FOUND for org A\'s campaign, like a missing one, and nothing changes', async () => {
      expect(codeOf(await api.gql(RECOMPUTE, { c: fixture.campaignId }, aMemberKey))).toBe('FORBIDDEN');
      const other = await api.gql(RECOMPUTE, { c: fixture.campaignId }, b.token);
      const missing = '00000000-0000-4000-8000-000000000000';
      const none = await api.gql(RECOMPUTE, { c: missing }, b.token);
      expect(codeOf(other)).toBe('NOT_FOUND');
      expect(codeOf(none)).toBe('NOT_FOUND');
      expect(other.errors![0]!.message.replace(fixture.campaignId, 'X')).toBe(none.errors![0]!.message.replace(missing, 'X'));
      expect(codeOf(await api.gql(RECOMPUTE, { c: 'not-a-uuid' }, a.token))).toBe('NOT_FOUND');
      const [{ n }] = await api.db.dataSource.query('SELECT count(*)::int AS n FROM cost_recomputes');
      expect(n).toBe(0);
      const [{ cost }] = await api.db.dataSource.query('SELECT sum(cost_micros)::int AS cost FROM usage_ledger WHERE campaign_id = $1', [fixture.campaignId]);
      expect(cost).toBe(357);
    });

    it('re-prices every call with the version in force at its time (override first, else default, else unpriced) and logs it', async () => {
      // Hand computations, micro-dollars:
      // gpt-rc now, org override $1.25 / $0.125 / $0 / $10: 200,000 x 1.25 + 1,000,000 x 0.125 + 50,000 x 10 = 250,000 + 125,000 + 500,000
      const openAiOverride = 875_000;
      // gpt-rc yesterday, platform default $2 / $0.5 / $0 / $8 (the override was not in force yet): 400,000 + 500,000 + 400,000
      const openAiDefault = 1_300_000;
      // claude-rc now, platform $3 / $0.3 / $3.75 / $15: 9,000 + 45,000.6 + 75,000 + 116,655 = 245,655.6, rounded half up once per call
      const anthropicDefault = 245_656;
      const res = await api.gql<{ recomputeCampaignCosts: Record<string, unknown> }>(RECOMPUTE, { c: fixture.campaignId }, a.token);
      expect(res.errors).toBeUndefined();
      const total = 2 * openAiOverride + openAiDefault + anthropicDefault;
      expect(res.data!.recomputeCampaignCosts).toMatchObject({ campaignId: fixture.campaignId, calls: 6, changedCalls: 5, unpricedCalls: 2, beforeUsd: 357 / 1e6, afterUsd: total / 1e6 });

      const rows: { model: string; cost: number; unpriced: boolean; price_id: string | null }[] = await api.db.dataSource.query(
        'SELECT model, cost_micros::int AS cost, unpriced, price_id FROM usage_ledger WHERE campaign_id = $1 ORDER BY cost_micros DESC, model, attempt',
        [fixture.campaignId],
      );
      expect(rows).toEqual([
        { model: 'gpt-rc', cost: openAiDefault, unpriced: false, price_id: platformGpt },
        { model: 'gpt-rc', cost: openAiOverride, unpriced: false, price_id: overrideGpt.id },
        { model: 'gpt-rc', cost: openAiOverride, unpriced: false, price_id: overrideGpt.id },
        { model: 'claude-rc', cost: anthropicDefault, unpriced: false, price_id: platformClaude.id },
        // No claude-rc price was in force yesterday; the unknown model never has one.
        { model: 'claude-rc', cost: 0, unpriced: true, price_id: null },
        { model: 'mystery-model', cost: 0, unpriced: true, price_id: null },
      ]);
      const [campaign] = await api.db.dataSource.query('SELECT spent_micros::int AS spent FROM campaigns WHERE id = $1', [fixture.campaignId]);
      expect(campaign.spent).toBe(total);
      // The org's monthly counter moves with the calls it counted.
      const [org] = await api.db.dataSource.query('SELECT sum(spent_micros)::int AS spent FROM org_spend WHERE org_id = $1', [a.orgId]);
      expect(org.spent).toBe(total);
      const executions = await api.db.dataSource.query('SELECT agent_name, cost_micros::int AS cost FROM executions WHERE campaign_id = $1 ORDER BY agent_name', [fixture.campaignId]);
      expect(executions).toEqual([
        { agent_name: 'claude', cost: anthropicDefault },
        { agent_name: 'codex', cost: 2 * openAiOverride + openAiDefault },
      ]);
      const logged = await api.db.dataSource.query(
        'SELECT org_id, campaign_id, requested_by_user_id, calls, before_micros::int AS before, after_micros::int AS after FROM cost_recomputes',
      );
      expect(logged).toEqual([{ org_id: a.orgId, campaign_id: fixture.campaignId, requested_by_user_id: a.userId, calls: 6, before: 357, after: total }]);
      const line = api.logs.map((l) => JSON.parse(l)).find((l) => l.msg === 'campaign costs recomputed');
      expect(line).toMatchObject({ campaignId: fixture.campaignId, orgId: a.orgId, userId: a.userId, beforeMicros: 357, afterMicros: total, calls: 6 });
    });

    it('a new price never rewrites past costs by itself; a second recompute with an unchanged book changes nothing', async () => {
      const [{ before }] = await api.db.dataSource.query('SELECT sum(cost_micros)::int AS before FROM usage_ledger WHERE campaign_id = $1', [fixture.campaignId]);
      const next = await api.gql(SET, price('gpt-rc', 'ORG', [100, 100, 100, 100], { effectiveFrom: new Date(Date.now() + 3_600_000).toISOString() }), a.token);
      expect(next.errors).toBeUndefined();
      const [{ after }] = await api.db.dataSource.query('SELECT sum(cost_micros)::int AS after FROM usage_ledger WHERE campaign_id = $1', [fixture.campaignId]);
      expect(after).toBe(before);
      const again = await api.gql<{ recomputeCampaignCosts: { changedCalls: number; beforeUsd: number; afterUsd: number } }>(RECOMPUTE, { c: fixture.campaignId }, a.token);
      expect(again.data!.recomputeCampaignCosts).toMatchObject({ changedCalls: 0, beforeUsd: before / 1e6, afterUsd: before / 1e6 });
      const [campaign] = await api.db.dataSource.query('SELECT spent_micros::int AS spent FROM campaigns WHERE id = $1', [fixture.campaignId]);
      expect(campaign.spent).toBe(before);
      const [{ n }] = await api.db.dataSource.query('SELECT count(*)::int AS n FROM cost_recomputes WHERE campaign_id = $1', [fixture.campaignId]);
      expect(n).toBe(2);
    });
  });
});
