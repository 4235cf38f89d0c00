import { claimExecutions, type StartRequest } from '#libs/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeOf, signUp, startTestApi, type TestApi } from '../support/api.js';
import { RecordingExecutor, launchedCampaign, scheduler } from '../support/engine.js';

/**
 * Metering end to end through the runner protocol: each model call priced
 * once into the ledger with the counters, whatever the delivery; caps that
 * stop dispatch, cancel what runs and resume when raised.
 */
describe('metering and budgets', () => {
  let api: TestApi;
  let owner: { token: string; orgId: string };

  const post = (run: StartRequest, events: unknown[]) =>
    fetch(`${api.url}/v1/executions/${run.executionId}/events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${run.token}`, 'content-type': 'application/x-ndjson' },
      body: events.map((e) => JSON.stringify(e)).join('\n'),
    });
  const at = (s: number) => new Date(Date.UTC(2026, 10, 29, 12, 0, 0) + s * 1000).toISOString();
  const q = async <T = any>(sql: string, params: unknown[] = []): Promise<T[]> => api.db.dataSource.query(sql, params);
  const gql = async (query: string, variables: Record<string, unknown>, token = owner.token) => {
    const res = await api.gql<any>(query, variables, token);
    if (res.errors) throw new Error(JSON.stringify(res.errors));
    return res.data;
  };

  // Test prices, per million tokens: uncached input, cache read, cache write, output (micro-dollars).
  const OPENAI = { model: 'test/openai-model', prices: [2_500_000, 250_000, 0, 10_000_000] };
  const ANTHROPIC = { model: 'test/anthropic-model', prices: [3_000_000, 300_000, 3_750_000, 15_000_000] };

  beforeAll(async () => {
    api = await startTestApi();
    owner = await signUp(api, 'metered');
    for (const m of [OPENAI, ANTHROPIC]) {
      await q(
        `INSERT INTO model_prices (id, org_id, model, effective_from, input_micros_per_mtok, cache_read_micros_per_mtok, cache_write_micros_per_mtok, output_micros_per_mtok)
         VALUES (gen_random_uuid(), NULL, $1, '2026-01-01', $2, $3, $4, $5)`,
        [m.model, ...m.prices],
      );
    }
  });
  afterAll(() => api.close());

  it('normalises OpenAI-style and Anthropic-style usage to disjoint kinds and prices them as computed by hand', async () => {
    await launchedCampaign(api, owner.token, { tasks: 1 });
    const [run] = await claimExecutions(api.db.dataSource, 1);
    const res = await post(run!, [
      // OpenAI: 1,000,000 input of which 400,000 cached; 100,000 output of which 30,000 reasoning.
      { id: 'o1', type: 'model.call', time: at(1), agentId: 'main', provider: 'openai', model: OPENAI.model, durationMs: 1, usage: { style: 'openai', inputTokens: 1_000_000, cachedInputTokens: 400_000, outputTokens: 100_000, reasoningTokens: 30_000 } },
      // Anthropic: 200,000 uncached input on top of 500,000 cache reads and 100,000 cache writes; 50,000 output.
      { id: 'a1', type: 'model.call', time: at(2), agentId: 'main', provider: 'anthropic', model: ANTHROPIC.model, durationMs: 1, usage: { style: 'anthropic', inputTokens: 200_000, cacheReadInputTokens: 500_000, cacheCreationInputTokens: 100_000, outputTokens: 50_000 } },
      // A model without a price: recorded with its usage, flagged, never priced at 0 silently.
      { id: 'u1', type: 'model.call', time: at(3), agentId: 'main', provider: 'x', model: 'nobody/knows', durationMs: 1, usage: { style: 'openai', inputTokens: 10, outputTokens: 5 } },
    ]);
    expect(res.status).toBe(200);
    const rows = await q(
      `SELECT event_id, uncached_input_tokens::int AS u, cache_read_tokens::int AS r, cache_write_tokens::int AS w, output_tokens::int AS o, reasoning_tokens::int AS re,
              cost_micros::int AS cost, unpriced FROM usage_ledger WHERE execution_id = $1 ORDER BY event_id`,
      [run!.executionId],
    );
    // By hand: OpenAI 600,000 x $2.50 + 400,000 x $0.25 + 100,000 x $10 per Mtok = $1.50 + $0.10 + $1.00 = $2.60.
    // Anthropic 200,000 x $3 + 500,000 x $0.30 + 100,000 x $3.75 + 50,000 x $15 per Mtok = $0.60 + $0.15 + $0.375 + $0.75 = $1.875.
    expect(rows).toEqual([
      { event_id: 'a1', u: 200_000, r: 500_000, w: 100_000, o: 50_000, re: 0, cost: 1_875_000, unpriced: false },
      { event_id: 'o1', u: 600_000, r: 400_000, w: 0, o: 100_000, re: 30_000, cost: 2_600_000, unpriced: false },
      { event_id: 'u1', u: 10, r: 0, w: 0, o: 5, re: 0, cost: 0, unpriced: true },
    ]);
    const [campaign] = await q('SELECT spent_micros::int AS spent FROM campaigns WHERE id = (SELECT campaign_id FROM executions WHERE id = $1)', [run!.executionId]);
    expect(campaign.spent).toBe(4_475_000);
  });

  it('counts each of 10,000 model calls exactly once when every batch arrives twice, concurrently over 8 connections', async () => {
    await launchedCampaign(api, owner.token, { tasks: 1 });
    const [run] = await claimExecutions(api.db.dataSource, 1);
    const calls = Array.from({ length: 10_000 }, (_, i) => {
      const anthropic = i % 3 === 0;
      const input = 1_000 + ((i * 7919) % 50_000);
      const cached = (i * 104_729) % input;
      const output = 100 + ((i * 31) % 5_000);
      return anthropic
        ? { id: `c${i}`, type: 'model.call', time: at(i), agentId: i % 2 ? 'main' : 'sub', provider: 'anthropic', model: ANTHROPIC.model, durationMs: 1, usage: { style: 'anthropic', inputTokens: input, cacheReadInputTokens: cached, cacheCreationInputTokens: i % 5, outputTokens: output } }
        : { id: `c${i}`, type: 'model.call', time: at(i), agentId: 'main', provider: 'openai', model: OPENAI.model, durationMs: 1, usage: { style: 'openai', inputTokens: input, cachedInputTokens: cached, outputTokens: output } };
    });
    // The expected spend, computed independently: exact integers, rounded half up once per call.
    const priceOf = (kinds: [number, number, number, number], prices: number[]) => {
      const numerator = kinds.reduce((sum, tokens, k) => sum + BigInt(tokens) * BigInt(prices[k]!), 0n);
      return Number((numerator + 500_000n) / 1_000_000n);
    };
    let expected = 0;
    for (const c of calls) {
      const u = c.usage as any;
      expected +=
        u.style === 'anthropic'
          ? priceOf([u.inputTokens, u.cacheReadInputTokens, u.cacheCreationInputTokens, u.outputTokens], ANTHROPIC.prices)
          : priceOf([u.inputTokens - u.cachedInputTokens, u.cachedInputTokens, 0, u.outputTokens], OPENAI.prices);
    }
    const batches: unknown[][] = [];
    for (let i = 0; i < calls.length; i += 125) batches.push(calls.slice(i, i + 125));
    // Every batch twice, interleaved so that both copies are often in flight at once.
    const queue = batches.flatMap((b, i) => [b, batches[(i * 37) % batches.length]!]).concat(batches.map((_, i) => batches[(i * 37) % batches.length]!));
    const sent = new Map<unknown[], number>();
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < queue.length) {
          const batch = queue[next++]!;
          const res = await post(run!, batch);
          expect(res.status).toBe(200);
          sent.set(batch, (sent.get(batch) ?? 0) + 1);
        }
      }),
    );
    expect([...sent.values()].every((n) => n >= 2)).toBe(true);
    const [ledger] = await q('SELECT count(*)::int AS n, sum(cost_micros)::bigint AS cost FROM usage_ledger WHERE execution_id = $1', [run!.executionId]);
    expect(ledger.n).toBe(10_000);
    expect(Number(ledger.cost)).toBe(expected);
    const [events] = await q(`SELECT count(*)::int AS n FROM trajectory_events WHERE execution_id = $1 AND type = 'model.call'`, [run!.executionId]);
    expect(events.n).toBe(10_000);
    const [campaign] = await q('SELECT spent_micros::bigint AS spent FROM campaigns WHERE id = (SELECT campaign_id FROM executions WHERE id = $1)', [run!.executionId]);
    expect(Number(campaign.spent)).toBe(expected);
    const [org] = await q('SELECT sum(spent_micros)::bigint AS spent FROM org_spend WHERE org_id = $1', [owner.orgId]);
    const [all] = await q('SELECT sum(cost_micros)::bigint AS cost FROM usage_ledger WHERE org_id = $1', [owner.orgId]);
    expect(Number(org.spent)).toBe(Number(all.cost));
  });

  it('a campaign cap stops dispatch, cancels what runs, records the overrun and every late event, and resumes when raised', async () => {
    const other = await signUp(api, 'capped');
    const campaignId = await launchedCampaign(api, other.token, { tasks: 6 });
    // Each execution is estimated at $0.50 (the plan's $3.00 over 6); the cap of $1.20 affords two at once.
    await q(`UPDATE campaigns SET budget_micros = 1200000, plan = jsonb_set(plan, '{estimate,expectedUsd}', '3') WHERE id = $1`, [campaignId]);
    const executor = new RecordingExecutor();
    const engine = scheduler(api.db.dataSource, executor);
    expect(await engine.dispatchOnce()).toBe(2);
    const [reserved] = await q('SELECT reserved_micros::int AS r, spent_micros::int AS s FROM campaigns WHERE id = $1', [campaignId]);
    expect(reserved).toEqual({ r: 1_000_000, s: 0 });
    expect(await engine.dispatchOnce()).toBe(0);

    const [first, second] = executor.started;
    // $1.50 of calls: OpenAI 600,000 uncached input at $2.50/Mtok.
    const spend = (id: string, tokens: number) => ({ id, type: 'model.call', time: at(0), agentId: 'main', provider: 'openai', model: OPENAI.model, durationMs: 1, usage: { style: 'openai', inputTokens: tokens, outputTokens: 0 } });
    expect((await post(first!, [spend('big', 600_000)])).status).toBe(200);
    const [paused] = await q('SELECT status, pause_reason FROM campaigns WHERE id = $1', [campaignId]);
    expect(paused).toEqual({ status: 'paused', pause_reason: 'budget' });
    const alerts = await q('SELECT threshold FROM budget_alerts WHERE campaign_id = $1 ORDER BY threshold', [campaignId]);
    expect(alerts.map((a) => a.threshold)).toEqual([50, 80, 100]);

    const started = Date.now();
    await engine.reconcileOnce();
    expect(Date.now() - started).toBeLessThan(5_000);
    // (Earlier tests' campaigns may be over their own caps too: only this campaign's runs are checked.)
    const ours = new Set(executor.started.map((s) => s.executionId));
    expect(new Set(executor.stopped.filter((id) => ours.has(id)))).toEqual(new Set([first!.executionId, second!.executionId]));
    const statuses = await q('SELECT status, count(*)::int AS n FROM executions WHERE campaign_id = $1 GROUP BY status ORDER BY status', [campaignId]);
    expect(statuses).toEqual([
      { status: 'cancelled_budget', n: 2 },
      { status: 'queued', n: 4 },
    ]);
    // The second runner still reports what it spent while stopping ($0.20): kept, as overrun.
    expect((await post(second!, [spend('late', 80_000)])).status).toBe(200);
    const campaign = (await gql('query($id: ID!) { campaign(id: $id) { status pauseReason budgetUsd spentUsd reservedUsd overrunUsd } }', { id: campaignId }, other.token)).campaign;
    expect(campaign).toEqual({ status: 'PAUSED', pauseReason: 'budget', budgetUsd: 1.2, spentUsd: 1.7, reservedUsd: 0, overrunUsd: 0.5 });
    expect(await engine.dispatchOnce()).toBe(0);

    // Resuming without room is refused; raising the cap resumes and requeues what the cap cancelled.
    expect(codeOf(await api.gql('mutation($id: ID!) { resumeCampaign(id: $id) { status } }', { id: campaignId }, other.token))).toBe('BUDGET_EXCEEDED');
    const raised = (await gql('mutation($id: ID!) { updateCampaignBudget(id: $id, budgetUsd: 10) { status pauseReason } }', { id: campaignId }, other.token)).updateCampaignBudget;
    expect(raised).toEqual({ status: 'RUNNING', pauseReason: null });
    expect(await engine.dispatchOnce()).toBe(6);
    const [ledger] = await q('SELECT count(*)::int AS n, sum(cost_micros)::int AS cost FROM usage_ledger WHERE campaign_id = $1', [campaignId]);
    expect(ledger).toEqual({ n: 2, cost: 1_700_000 });
  });

  it('two campaigns under one org monthly cap share it: dispatch stops at the cap, both stop, raising it resumes both', async () => {
    const org = await signUp(api, 'org-capped');
    const b = await launchedCampaign(api, org.token, { tasks: 3 });
    const c = await launchedCampaign(api, org.token, { tasks: 3 });
    // $0.40 per execution in each campaign; the org may spend $1 a month: two executions fit, a third would not.
    await q(`UPDATE campaigns SET plan = jsonb_set(plan, '{estimate,expectedUsd}', '1.2') WHERE id = ANY($1::uuid[])`, [[b, c]]);
    await gql('mutation { updateOrganizationBudget(input: { monthlyBudgetUsd: 1 }) { monthlyBudgetUsd } }', {}, org.token);
    const executor = new RecordingExecutor();
    const engine = scheduler(api.db.dataSource, executor);
    expect(await engine.dispatchOnce()).toBe(2);
    expect(new Set(executor.started.map((s) => s.orgId))).toEqual(new Set([org.orgId]));
    const [spend] = await q(`SELECT reserved_micros::int AS r FROM org_spend WHERE org_id = $1`, [org.orgId]);
    expect(spend.r).toBe(800_000);

    // $0.60 in one campaign and $0.50 in the other: the org is over its cap; both campaigns pause and their runs stop.
    const call = (id: string, tokens: number) => ({ id, type: 'model.call', time: at(0), agentId: 'main', provider: 'openai', model: OPENAI.model, durationMs: 1, usage: { style: 'openai', inputTokens: tokens, outputTokens: 0 } });
    const byCampaign = new Map<string, StartRequest>();
    for (const s of executor.started) {
      const [row] = await q('SELECT campaign_id FROM executions WHERE id = $1', [s.executionId]);
      byCampaign.set(row.campaign_id, s);
    }
    const runs = [...executor.started];
    expect((await post(runs[0]!, [call('x1', 240_000)])).status).toBe(200);
    expect((await post(runs[1]!, [call('x2', 200_000)])).status).toBe(200);
    const states = await q('SELECT status, pause_reason FROM campaigns WHERE id = ANY($1::uuid[])', [[b, c]]);
    expect(states).toEqual([
      { status: 'paused', pause_reason: 'org_budget' },
      { status: 'paused', pause_reason: 'org_budget' },
    ]);
    await engine.reconcileOnce();
    expect(executor.stopped.filter((id) => runs.some((r) => r.executionId === id))).toHaveLength(2);
    const orgAlerts = await q(`SELECT threshold, period FROM budget_alerts WHERE org_id = $1 AND scope = 'org' ORDER BY threshold`, [org.orgId]);
    expect(orgAlerts.map((a) => a.threshold)).toEqual([50, 80, 100]);
    // A new campaign cannot even launch while the org is over its cap.
    const d = await launchedCampaign(api, org.token, { tasks: 1, launch: false });
    expect(codeOf(await api.gql('mutation($id: ID!) { launchCampaign(id: $id) { status } }', { id: d }, org.token))).toBe('BUDGET_EXCEEDED');

    const raised = (await gql('mutation { updateOrganizationBudget(input: { monthlyBudgetUsd: 20 }) { monthlyBudgetUsd spentThisMonthUsd overrunUsd resumedCampaigns } }', {}, org.token))
      .updateOrganizationBudget;
    expect(raised.monthlyBudgetUsd).toBe(20);
    expect(raised.spentThisMonthUsd).toBe(1.1);
    expect(new Set(raised.resumedCampaigns)).toEqual(new Set([b, c]));
    expect(await engine.dispatchOnce()).toBe(6);
  });

  it('refuses launches while the org has an unpaid invoice, and bad budget input naming the field', async () => {
    const org = await signUp(api, 'unpaid');
    const id = await launchedCampaign(api, org.token, { tasks: 1, launch: false });
    await q('UPDATE organizations SET billing_hold = true WHERE id = $1', [org.orgId]);
    expect(codeOf(await api.gql('mutation($id: ID!) { launchCampaign(id: $id) { status } }', { id }, org.token))).toBe('PAYMENT_REQUIRED');
    await q('UPDATE organizations SET billing_hold = false WHERE id = $1', [org.orgId]);
    expect((await api.gql('mutation($id: ID!) { launchCampaign(id: $id) { status } }', { id }, org.token)).errors).toBeUndefined();
    for (const [query, field] of [
      ['mutation($id: ID!) { updateCampaignBudget(id: $id, budgetUsd: -1) { status } }', 'budgetUsd'],
      ['mutation { updateOrganizationBudget(input: { monthlyBudgetUsd: 0 }) { monthlyBudgetUsd } }', 'monthlyBudgetUsd'],
      ['mutation { updateOrganizationBudget(input: { alertWebhookUrl: "ftp://x" }) { alertWebhookUrl } }', 'alertWebhookUrl'],
    ] as const) {
      const res = await api.gql(query, { id }, org.token);
      expect(res.errors?.[0]?.extensions, query).toMatchObject({ code: 'BAD_USER_INPUT', field });
    }
  });

  it("no org can change or read another org's budget or spend (NOT_FOUND, like a missing campaign)", async () => {
    const a = await signUp(api, 'budget-a');
    const b = await signUp(api, 'budget-b');
    const id = await launchedCampaign(api, a.token, { tasks: 1 });
    expect(codeOf(await api.gql('mutation($id: ID!) { updateCampaignBudget(id: $id, budgetUsd: 1000) { status } }', { id }, b.token))).toBe('NOT_FOUND');
    expect(codeOf(await api.gql('query($id: ID!) { campaign(id: $id) { spentUsd } }', { id }, b.token))).toBe('NOT_FOUND');
    const [row] = await q('SELECT budget_micros::bigint AS cap FROM campaigns WHERE id = $1', [id]);
    expect(Number(row.cap)).toBe(100_000_000);
    // Org B's cap is its own: setting it touches nothing of org A, and each org reads only its own.
    await gql('mutation { updateOrganizationBudget(input: { monthlyBudgetUsd: 3 }) { monthlyBudgetUsd } }', {}, b.token);
    expect((await gql('query { organizationBudget { monthlyBudgetUsd spentThisMonthUsd } }', {}, b.token)).organizationBudget).toEqual({ monthlyBudgetUsd: 3, spentThisMonthUsd: 0 });
    expect((await gql('query { organizationBudget { monthlyBudgetUsd } }', {}, a.token)).organizationBudget).toEqual({ monthlyBudgetUsd: null });
    const [orgA] = await q('SELECT monthly_budget_micros FROM organizations WHERE id = $1', [a.orgId]);
    expect(orgA.monthly_budget_micros).toBeNull();
  });
});
