import { claimExecutions } from '#libs/engine';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { signUp, startTestApi, type TestApi } from '../support/api.js';
import { createTestDatabase } from '../support/database.js';
import { RecordingExecutor, launchedCampaign, scheduler } from '../support/engine.js';

describe('scheduler', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi();
  });
  afterAll(() => api.close());
  // Every test dispatches from one shared database: stop the previous tests' campaigns first.
  beforeEach(() => api.db.dataSource.query(`UPDATE campaigns SET status = 'cancelled' WHERE status IN ('running', 'paused')`));

  const statusCounts = async (campaignId: string) =>
    Object.fromEntries(
      (await api.db.dataSource.query('SELECT status, count(*)::int AS n FROM executions WHERE campaign_id = $1 GROUP BY status', [campaignId])).map(
        (r: { status: string; n: number }) => [r.status, r.n],
      ),
    );
  const finish = (ids: string[]) => api.db.dataSource.query(`UPDATE executions SET status = 'completed', outcome = 'completed' WHERE id = ANY($1::uuid[])`, [ids]);

  it('never exceeds the campaign\'s and the org\'s concurrency caps', async () => {
    const u = await signUp(api, 'caps');
    await api.db.dataSource.query('UPDATE organizations SET max_concurrency = 3 WHERE id = $1', [u.orgId]);
    const c1 = await launchedCampaign(api, u.token, { tasks: 8, maxConcurrency: 2 });
    const c2 = await launchedCampaign(api, u.token, { tasks: 8, maxConcurrency: 2 });
    const executor = new RecordingExecutor();
    const s = scheduler(api.db.dataSource, executor);
    for (let round = 0; round < 12; round++) {
      await s.dispatchOnce();
      const [{ org }] = await api.db.dataSource.query(`SELECT count(*)::int AS org FROM executions WHERE org_id = $1 AND status IN ('dispatching','running')`, [u.orgId]);
      expect(org).toBeLessThanOrEqual(3);
      for (const c of [c1, c2]) expect((await statusCounts(c)).running ?? 0).toBeLessThanOrEqual(2);
      // Finish one running execution per round so the caps are tested while work moves.
      const started = executor.started.filter((r) => r.orgId === u.orgId);
      if (started[round]) await finish([started[round]!.executionId]);
    }
    expect(executor.started.length).toBeGreaterThanOrEqual(12);
  });

  it('is fair across orgs: the org with the fewest running goes first', async () => {
    const db = await createTestDatabase();
    try {
      const a = await signUp(api, 'fair-a');
      const b = await signUp(api, 'fair-b');
      await launchedCampaign(api, a.token, { tasks: 10 });
      await launchedCampaign(api, b.token, { tasks: 10 });
      const claimed = await claimExecutions(api.db.dataSource, 6);
      const byOrg = (org: string) => claimed.filter((r) => r.orgId === org).length;
      expect(byOrg(a.orgId)).toBe(3);
      expect(byOrg(b.orgId)).toBe(3);
      // Org A now has 3 running; the next single claim goes to... whoever has fewer: a tie, so both stay level.
      const more = await claimExecutions(api.db.dataSource, 2);
      expect(more.filter((r) => r.orgId === a.orgId)).toHaveLength(1);
      expect(more.filter((r) => r.orgId === b.orgId)).toHaveLength(1);
    } finally {
      await db.drop();
    }
  });

  it('two schedulers at once claim each execution once', async () => {
    const u = await signUp(api, 'twin');
    const campaign = await launchedCampaign(api, u.token, { tasks: 30, maxConcurrency: 1000 });
    await api.db.dataSource.query('UPDATE organizations SET max_concurrency = 1000 WHERE id = $1', [u.orgId]);
    const [first, second] = await Promise.all([
      (async () => {
        const all = [];
        for (let i = 0; i < 10; i++) all.push(...(await claimExecutions(api.db.dataSource, 5)));
        return all;
      })(),
      (async () => {
        const all = [];
        for (let i = 0; i < 10; i++) all.push(...(await claimExecutions(api.db.dataSource, 5)));
        return all;
      })(),
    ]);
    const ids = [...first!, ...second!].filter((r) => r.orgId === u.orgId).map((r) => r.executionId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(30);
    expect(await statusCounts(campaign)).toEqual({ dispatching: 30 });
  });

  it('a crash between claim and start: the stalled dispatch is requeued and runs once', async () => {
    const u = await signUp(api, 'crash1');
    const campaign = await launchedCampaign(api, u.token, { tasks: 1 });
    const [claimed] = (await claimExecutions(api.db.dataSource, 100)).filter((r) => r.orgId === u.orgId);
    // The scheduler died here: nothing was started. Time passes.
    await api.db.dataSource.query(`UPDATE executions SET dispatched_at = now() - interval '5 minutes' WHERE id = $1`, [claimed!.executionId]);
    const executor = new RecordingExecutor();
    const restarted = scheduler(api.db.dataSource, executor);
    await restarted.reconcileOnce();
    expect(await statusCounts(campaign)).toEqual({ queued: 1 });
    await restarted.dispatchOnce();
    const mine = executor.started.filter((r) => r.orgId === u.orgId);
    expect(mine).toHaveLength(1);
    expect(mine[0]!.attempt).toBe(2);
    expect(await statusCounts(campaign)).toEqual({ running: 1 });
  });

  it('a crash between start and finish: a live runner is left alone; a dead one is retried', async () => {
    const u = await signUp(api, 'crash2');
    const campaign = await launchedCampaign(api, u.token, { tasks: 1 });
    const executor = new RecordingExecutor();
    await scheduler(api.db.dataSource, executor).dispatchOnce();
    const [run] = executor.started.filter((r) => r.orgId === u.orgId);
    await api.db.dataSource.query(`UPDATE executions SET heartbeat_at = now() - interval '5 minutes' WHERE id = $1`, [run!.executionId]);
    const restarted = scheduler(api.db.dataSource, executor);
    await restarted.reconcileOnce();
    expect(await statusCounts(campaign)).toEqual({ running: 1 });
    executor.alive.clear();
    await restarted.reconcileOnce();
    expect(await statusCounts(campaign)).toEqual({ queued: 1 });
    const [row] = await api.db.dataSource.query('SELECT attempt, last_error FROM executions WHERE id = $1', [run!.executionId]);
    expect(row).toEqual({ attempt: 1, last_error: 'lost heartbeat: the runner stopped reporting' });
  });

  it('infrastructure failures are retried up to the limit, then infra_failed; the campaign completes', async () => {
    const u = await signUp(api, 'retry');
    const campaign = await launchedCampaign(api, u.token, { tasks: 1 });
    const executor = new RecordingExecutor();
    const s = scheduler(api.db.dataSource, executor, 2);
    executor.failNextStart = true;
    await s.dispatchOnce();
    expect(await statusCounts(campaign)).toEqual({ queued: 1 });
    await s.dispatchOnce();
    const [run] = executor.started.filter((r) => r.orgId === u.orgId);
    expect(run!.attempt).toBe(2);
    executor.onExit(run!.executionId, 2, 1);
    await new Promise((r) => setTimeout(r, 200));
    expect(await statusCounts(campaign)).toEqual({ infra_failed: 1 });
    const [c] = await api.db.dataSource.query('SELECT status FROM campaigns WHERE id = $1', [campaign]);
    expect(c.status).toBe('completed');
  });

  it('paused and cancelled campaigns are not dispatched; cancel stops running attempts', async () => {
    const u = await signUp(api, 'pause');
    const campaign = await launchedCampaign(api, u.token, { tasks: 4, maxConcurrency: 2 });
    const executor = new RecordingExecutor();
    const s = scheduler(api.db.dataSource, executor);
    await s.dispatchOnce();
    await api.gql('mutation($id: ID!) { pauseCampaign(id: $id) { status } }', { id: campaign }, u.token);
    await finish(executor.started.filter((r) => r.orgId === u.orgId).map((r) => r.executionId));
    expect(await s.dispatchOnce()).toBe(0);
    await api.gql('mutation($id: ID!) { resumeCampaign(id: $id) { status } }', { id: campaign }, u.token);
    await s.dispatchOnce();
    await api.gql('mutation($id: ID!) { cancelCampaign(id: $id) { status } }', { id: campaign }, u.token);
    await s.reconcileOnce();
    expect(await statusCounts(campaign)).toEqual({ completed: 2, cancelled: 2 });
    expect(executor.stopped).toHaveLength(2);
  });
});
