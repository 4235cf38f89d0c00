import { Clock } from '#libs/common';
import { AlertDeliveryService, DEFAULT_ALERT_DELIVERY, FetchAlertWebhookSender, type AlertDeliveryOptions } from '#libs/metering';
import { createLogger } from '#libs/observability';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { codeOf, createKey, signUp, startTestApi, type TestApi } from '../support/api.js';
import { createCampaignFixture, type CampaignFixture } from '../support/campaign-fixture.js';

const ALERTS = `query($first: Int, $after: String, $c: ID) { alerts(first: $first, after: $after, campaign: $c) {
  totalCount pageInfo { endCursor hasNextPage }
  nodes { id scope campaignId campaignName period threshold spentUsd capUsd createdAt webhookStatus webhookAttempts webhookLastError } } }`;

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

/** A local webhook receiver: /ok answers 204 (after `delayMs`), /fail answers 500. Records every request. */
async function startReceiver(delayMs = 0): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: JSON.parse(text) });
      if (req.url?.startsWith('/fail')) {
        res.writeHead(500).end('boom');
        return;
      }
      setTimeout(() => res.writeHead(204).end(), delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, received, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

class FakeClock extends Clock {
  constructor(private time: number) {
    super();
  }
  now(): Date {
    return new Date(this.time);
  }
  set(time: number): void {
    this.time = time;
  }
}

describe('budget alerts', () => {
  let api: TestApi;
  let a: Awaited<ReturnType<typeof signUp>>;
  let b: Awaited<ReturnType<typeof signUp>>;
  let campaignA: CampaignFixture;
  let campaignB: CampaignFixture;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const logger = createLogger('silent');

  const worker = (clock: Clock, options: Partial<AlertDeliveryOptions> = {}) =>
    new AlertDeliveryService(api.db.dataSource, clock, new FetchAlertWebhookSender(), { ...DEFAULT_ALERT_DELIVERY, ...options }, logger);

  async function insertAlert(orgId: string, fields: { scope?: 'campaign' | 'org'; campaignId?: string | null; threshold?: number; createdAt?: Date; status?: string }): Promise<string> {
    const id = randomUUID();
    const scope = fields.scope ?? 'campaign';
    await api.db.dataSource.query(
      `INSERT INTO budget_alerts (id, org_id, scope, campaign_id, period, threshold, dedupe_key, spent_micros, cap_micros, created_at, webhook_status, next_attempt_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, CASE WHEN $11 = 'pending' THEN now() - interval '1 second' END)`,
      [
        id,
        orgId,
        scope,
        scope === 'campaign' ? fields.campaignId : null,
        scope === 'org' ? '2025-06' : null,
        fields.threshold ?? 50,
        `test:${id}`,
        5_250_000,
        10_000_000,
        fields.createdAt ?? new Date(),
        fields.status ?? 'none',
      ],
    );
    return id;
  }

  beforeAll(async () => {
    api = await startTestApi();
    a = await signUp(api, 'alice');
    b = await signUp(api, 'bob');
    const small = { agents: [{ name: 'codex', model: 'gpt-x' }], modes: ['concurrent'], benchmarks: [{ key: 'bench', tasks: [{ key: 't1', difficulty: 'easy' as const }] }], repetitions: 1 };
    campaignA = await createCampaignFixture(api.db.dataSource, { orgId: a.orgId, name: 'alpha', ...small });
    campaignB = await createCampaignFixture(api.db.dataSource, { orgId: b.orgId, name: 'bravo', ...small });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await api?.close();
  });

  describe('listing', () => {
    let ids: string[];
    let bAlert: string;

    beforeAll(async () => {
      const t0 = Date.parse('2025-06-10T12:00:00Z');
      ids = [
        await insertAlert(a.orgId, { campaignId: campaignA.campaignId, threshold: 50, createdAt: new Date(t0) }),
        await insertAlert(a.orgId, { campaignId: campaignA.campaignId, threshold: 80, createdAt: new Date(t0 + 1000) }),
        await insertAlert(a.orgId, { scope: 'org', threshold: 100, createdAt: new Date(t0 + 2000) }),
      ];
      bAlert = await insertAlert(b.orgId, { campaignId: campaignB.campaignId, threshold: 50, createdAt: new Date(t0 + 500) });
    });

    it('lists the caller\'s alerts newest first, paged', async () => {
      const first = await api.gql<{ alerts: { totalCount: number; pageInfo: { endCursor: string; hasNextPage: boolean }; nodes: Record<string, unknown>[] } }>(ALERTS, { first: 2 }, a.token);
      expect(first.errors).toBeUndefined();
      expect(first.data!.alerts.totalCount).toBe(3);
      expect(first.data!.alerts.pageInfo.hasNextPage).toBe(true);
      expect(first.data!.alerts.nodes.map((n) => n.id)).toEqual([ids[2], ids[1]]);
      expect(first.data!.alerts.nodes[0]).toMatchObject({ scope: 'ORG', campaignId: null, period: '2025-06', threshold: 100, spentUsd: 5.25, capUsd: 10, webhookStatus: 'NONE', webhookAttempts: 0 });
      expect(first.data!.alerts.nodes[1]).toMatchObject({ scope: 'CAMPAIGN', campaignId: campaignA.campaignId, campaignName: 'alpha', period: null, threshold: 80, createdAt: '2025-06-10T12:00:01.000Z' });
      const second = await api.gql<{ alerts: { pageInfo: { hasNextPage: boolean }; nodes: { id: string }[] } }>(ALERTS, { first: 2, after: first.data!.alerts.pageInfo.endCursor }, a.token);
      expect(second.data!.alerts.nodes.map((n) => n.id)).toEqual([ids[0]]);
      expect(second.data!.alerts.pageInfo.hasNextPage).toBe(false);
      const byCampaign = await api.gql<{ alerts: { totalCount: number; nodes: { id: string }[] } }>(ALERTS, { c: campaignA.campaignId }, a.token);
      expect(byCampaign.data!.alerts.nodes.map((n) => n.id)).toEqual([ids[1], ids[0]]);
      expect(byCampaign.data!.alerts.totalCount).toBe(2);
    });

    it('cross-tenant: each org sees only its own alerts; another org\'s campaign answers NOT_FOUND like a missing one', async () => {
      for (const token of [b.token, (await createKey(api, b.token, 'VIEWER')).key]) {
        const res = await api.gql<{ alerts: { totalCount: number; nodes: { id: string }[] } }>(ALERTS, { first: 100 }, token);
        expect(res.data!.alerts.nodes.map((n) => n.id)).toEqual([bAlert]);
        expect(res.data!.alerts.totalCount).toBe(1);
        const other = await api.gql(ALERTS, { c: campaignA.campaignId }, token);
        const missing = '00000000-0000-4000-8000-000000000000';
        const none = await api.gql(ALERTS, { c: missing }, token);
        expect(codeOf(other)).toBe('NOT_FOUND');
        expect(codeOf(none)).toBe('NOT_FOUND');
        expect(other.errors![0]!.message.replace(campaignA.campaignId, 'X')).toBe(none.errors![0]!.message.replace(missing, 'X'));
      }
      const asA = await api.gql<{ alerts: { nodes: { id: string }[] } }>(ALERTS, { first: 100 }, a.token);
      expect(asA.data!.alerts.nodes.map((n) => n.id)).not.toContain(bAlert);
    });

    it('a bad cursor names the argument', async () => {
      const res = await api.gql(ALERTS, { after: 'garbage' }, a.token);
      expect(codeOf(res)).toBe('BAD_USER_INPUT');
      expect(res.errors![0]!.message).toMatch(/^after:/);
    });
  });

  describe('webhook delivery', () => {
    beforeEach(async () => {
      receiver.received.length = 0;
      // Earlier tests' alerts are settled; only each test's own are pending.
      await api.db.dataSource.query(`UPDATE budget_alerts SET webhook_status = 'none' WHERE webhook_status = 'pending'`);
    });

    it('delivers a pending alert once: POST JSON with the alert id header, then never again', async () => {
      await api.db.dataSource.query('UPDATE organizations SET alert_webhook_url = $2 WHERE id = $1', [a.orgId, `${receiver.url}/ok?token=abc`]);
      const id = await insertAlert(a.orgId, { campaignId: campaignA.campaignId, threshold: 80, status: 'pending', createdAt: new Date('2025-06-11T08:00:00.123Z') });
      const service = api.app.get(AlertDeliveryService);
      expect(await service.runOnce()).toEqual({ claimed: 1, delivered: 1, retrying: 0, failed: 0 });
      expect(await service.runOnce()).toEqual({ claimed: 0, delivered: 0, retrying: 0, failed: 0 });
      expect(receiver.received).toHaveLength(1);
      const [request] = receiver.received;
      expect(request!.path).toBe('/ok?token=abc');
      expect(request!.headers['x-fanout-alert-id']).toBe(id);
      expect(request!.headers['content-type']).toBe('application/json');
      expect(request!.body).toEqual({
        id,
        scope: 'campaign',
        campaignId: campaignA.campaignId,
        period: null,
        threshold: 80,
        spentUsd: 5.25,
        capUsd: 10,
        createdAt: '2025-06-11T08:00:00.123Z',
      });
      const [row] = await api.db.dataSource.query('SELECT webhook_status, webhook_attempts, last_error, next_attempt_at FROM budget_alerts WHERE id = $1', [id]);
      expect(row).toEqual({ webhook_status: 'delivered', webhook_attempts: 1, last_error: null, next_attempt_at: null });
      const listed = await api.gql<{ alerts: { nodes: { id: string; webhookStatus: string; webhookAttempts: number }[] } }>(ALERTS, { first: 1 }, a.token);
      expect(listed.data!.alerts.nodes[0]).toMatchObject({ webhookStatus: 'DELIVERED', webhookAttempts: 1 });
    });

    it('retries a failing endpoint with exponential backoff, then marks the alert failed after 8 attempts', async () => {
      await api.db.dataSource.query('UPDATE organizations SET alert_webhook_url = $2 WHERE id = $1', [b.orgId, `${receiver.url}/fail`]);
      const id = await insertAlert(b.orgId, { scope: 'org', threshold: 100, status: 'pending' });
      const start = Date.now() + 1_000;
      const clock = new FakeClock(start);
      const service = worker(clock, { baseDelayMs: 1_000 });
      let now = start;
      for (let attempt = 1; attempt <= 8; attempt++) {
        expect(await service.runOnce(), `attempt ${attempt}`).toMatchObject({ claimed: 1, delivered: 0, ...(attempt < 8 ? { retrying: 1 } : { failed: 1 }) });
        expect(receiver.received).toHaveLength(attempt);
        const [row] = await api.db.dataSource.query('SELECT webhook_status, webhook_attempts, last_error, next_attempt_at FROM budget_alerts WHERE id = $1', [id]);
        expect(row.webhook_attempts).toBe(attempt);
        expect(row.last_error).toBe('HTTP 500');
        if (attempt === 8) {
          expect(row.webhook_status).toBe('failed');
          expect(row.next_attempt_at).toBeNull();
          break;
        }
        // 1 s, 2 s, 4 s, ... after each failure; nothing is tried before that.
        const delay = 1_000 * 2 ** (attempt - 1);
        expect(row.webhook_status).toBe('pending');
        expect(row.next_attempt_at.getTime()).toBe(now + delay);
        clock.set(now + delay - 1);
        expect(await service.runOnce()).toMatchObject({ claimed: 0 });
        now += delay;
        clock.set(now);
      }
      clock.set(now + 10 * 3_600_000);
      expect(await service.runOnce()).toMatchObject({ claimed: 0 });
      expect(receiver.received).toHaveLength(8);
      expect(receiver.received.every((r) => r.headers['x-fanout-alert-id'] === id)).toBe(true);
      const listed = await api.gql<{ alerts: { nodes: { id: string; webhookStatus: string; webhookAttempts: number; webhookLastError: string }[] } }>(ALERTS, { first: 100 }, b.token);
      expect(listed.data!.alerts.nodes.find((n) => n.id === id)).toMatchObject({ webhookStatus: 'FAILED', webhookAttempts: 8, webhookLastError: 'HTTP 500' });
    });

    it('an unreachable endpoint is an attempt that failed, without the URL in the error', async () => {
      const closed = await startReceiver();
      await closed.close();
      await api.db.dataSource.query('UPDATE organizations SET alert_webhook_url = $2 WHERE id = $1', [b.orgId, `${closed.url}/gone?secret=s3cr3t`]);
      const id = await insertAlert(b.orgId, { scope: 'org', threshold: 80, status: 'pending' });
      expect(await worker(new FakeClock(Date.now() + 1_000)).runOnce()).toMatchObject({ claimed: 1, retrying: 1 });
      const [row] = await api.db.dataSource.query('SELECT webhook_status, webhook_attempts, last_error FROM budget_alerts WHERE id = $1', [id]);
      expect(row).toMatchObject({ webhook_status: 'pending', webhook_attempts: 1 });
      expect(row.last_error).toMatch(/ECONNREFUSED|fetch failed/);
      expect(row.last_error).not.toContain('s3cr3t');
    });

    it('two workers running at once never send an alert twice', async () => {
      const slow = await startReceiver(30);
      try {
        await api.db.dataSource.query('UPDATE organizations SET alert_webhook_url = $2 WHERE id = $1', [a.orgId, `${slow.url}/ok`]);
        const ids: string[] = [];
        for (let i = 0; i < 40; i++) ids.push(await insertAlert(a.orgId, { scope: 'org', threshold: 50, status: 'pending' }));
        const clock = new FakeClock(Date.now() + 1_000);
        const drain = async (service: AlertDeliveryService) => {
          let claimed = 0;
          for (;;) {
            const round = await service.runOnce();
            if (round.claimed === 0) return claimed;
            expect(round.delivered).toBe(round.claimed);
            claimed += round.claimed;
          }
        };
        const [one, two] = await Promise.all([drain(worker(clock, { batchSize: 4 })), drain(worker(clock, { batchSize: 4 }))]);
        expect(one + two).toBe(40);
        const sent = slow.received.map((r) => r.headers['x-fanout-alert-id']);
        expect(sent).toHaveLength(40);
        expect(new Set(sent)).toEqual(new Set(ids));
        const rows = await api.db.dataSource.query(`SELECT webhook_status, webhook_attempts, count(*)::int AS n FROM budget_alerts WHERE id = ANY($1::uuid[]) GROUP BY 1, 2`, [ids]);
        expect(rows).toEqual([{ webhook_status: 'delivered', webhook_attempts: 1, n: 40 }]);
      } finally {
        await slow.close();
      }
    });

    it('alerts of an org without a webhook URL are never sent', async () => {
      await api.db.dataSource.query('UPDATE organizations SET alert_webhook_url = NULL WHERE id = $1', [a.orgId]);
      const none = await insertAlert(a.orgId, { scope: 'org', threshold: 100, status: 'none' });
      // Raised while a URL was set, which was removed before delivery.
      const orphan = await insertAlert(a.orgId, { scope: 'org', threshold: 80, status: 'pending' });
      expect(await worker(new FakeClock(Date.now() + 1_000)).runOnce()).toMatchObject({ claimed: 1, delivered: 0 });
      expect(receiver.received).toHaveLength(0);
      const rows = await api.db.dataSource.query('SELECT id, webhook_status FROM budget_alerts WHERE id = ANY($1::uuid[]) ORDER BY threshold', [[none, orphan]]);
      expect(rows).toEqual([
        { id: orphan, webhook_status: 'none' },
        { id: none, webhook_status: 'none' },
      ]);
    });
  });
});
