import { BillingWorker, MeterOutboxService } from '#libs/billing';
import { randomUUID } from 'node:crypto';
import { Stripe } from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, startTestApi, type TestApi } from '../support/api.js';
import { StripeStandIn } from '../support/stripe-stand-in.js';

const WEBHOOK_SECRET = 'whsec_fanout_integration_test';
const HOUR = 3600_000;
const MIN = 60_000;
/** A fixed clock origin: every round runs at an explicit `now`, never the wall clock. */
const T0 = Date.UTC(2031, 2, 3, 0, 0, 0);
const at = (ms: number) => new Date(T0 + ms);
/** The start of test hour n. */
const hour = (n: number) => at(n * HOUR);
/** The first moment hour n is closed (its end plus the 5-minute grace). */
const closed = (n: number) => at((n + 1) * HOUR + 5 * MIN);

const signer = new Stripe('sk_test_signer_only', { telemetry: false });

type Org = Awaited<ReturnType<typeof signUp>>;

interface OrgRow {
  stripe_customer_id: string | null;
  billing_hold: boolean;
  plan: string | null;
  max_concurrency: number;
  monthly_budget_micros: string | null;
}

async function postWebhook(api: TestApi, body: string, signature: string | null) {
  const res = await fetch(`${api.url}/v1/stripe/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(signature === null ? {} : { 'stripe-signature': signature }) },
    body,
  });
  return { status: res.status, body: (await res.json()) as { received?: boolean; duplicate?: boolean; outcome?: string; error?: { code: string; message: string } } };
}

function event(type: string, object: Record<string, unknown>, id = `evt_${randomUUID().replace(/-/g, '')}`): string {
  return JSON.stringify({ id, object: 'event', api_version: '2026-10-28.endive', created: Math.floor(T0 / 1000), livemode: false, type, data: { object } });
}

function sign(payload: string, secret = WEBHOOK_SECRET): string {
  return signer.webhooks.generateTestHeaderString({ payload, secret });
}

describe('Stripe billing, against a local Stripe stand-in', () => {
  let api: TestApi;
  let stripe: StripeStandIn;
  let outbox: MeterOutboxService;
  let worker: BillingWorker;
  let a: Org;
  let b: Org;
  let ledgerHasAttempt = false;

  const orgRow = async (orgId: string): Promise<OrgRow> =>
    (await api.db.dataSource.query(`SELECT stripe_customer_id, billing_hold, plan, max_concurrency, monthly_budget_micros::text FROM organizations WHERE id = $1`, [orgId]))[0];

  /** One priced model call, as the ledger writer would record it. */
  const spend = async (orgId: string, recordedAt: Date, costMicros: number) => {
    const columns = ['execution_id', 'event_id', 'org_id', 'campaign_id', 'agent_config_version_id', 'agent_name', 'mode', 'agent_id', 'provider', 'model', 'call_time', 'recorded_at'];
    const values: unknown[] = [randomUUID(), randomUUID(), orgId, randomUUID(), randomUUID(), 'agent', 'solo', 'main', 'anthropic', 'claude', recordedAt, recordedAt];
    columns.push('uncached_input_tokens', 'cache_read_tokens', 'cache_write_tokens', 'output_tokens', 'reasoning_tokens', 'cost_micros', 'unpriced');
    values.push(1000, 0, 0, 100, 0, costMicros, false);
    if (ledgerHasAttempt) {
      columns.push('attempt');
      values.push(1);
    }
    await api.db.dataSource.query(`INSERT INTO usage_ledger (${columns.join(', ')}) VALUES (${values.map((_, i) => `$${i + 1}`).join(', ')})`, values);
  };

  const meterRow = async (orgId: string, n: number) =>
    (
      await api.db.dataSource.query(
        `SELECT identifier, value::text, status, attempts, next_attempt_at, last_error, delivered_at FROM stripe_meter_events WHERE org_id = $1 AND hour = $2`,
        [orgId, hour(n)],
      )
    )[0] as { identifier: string; value: string; status: string; attempts: number; next_attempt_at: Date; last_error: string | null; delivered_at: Date | null } | undefined;

  const identifier = (orgId: string, n: number) => `fanout_spend:${orgId}:${hour(n).toISOString()}`;

  /** What Stripe billed per org: each accepted event once. */
  const billedBy = (customerId: string) => stripe.meterEvents.filter((e) => e.customer === customerId).reduce((sum, e) => sum + Number(e.value), 0);
  const ledgerSum = async (orgId: string, before: Date) =>
    Number((await api.db.dataSource.query(`SELECT coalesce(sum(cost_micros), 0)::text AS s FROM usage_ledger WHERE org_id = $1 AND recorded_at < $2`, [orgId, before]))[0].s);

  beforeAll(async () => {
    stripe = await StripeStandIn.start();
    api = await startTestApi({ STRIPE_SECRET_KEY: 'sk_test_fanout_stand_in', STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_URL: stripe.url });
    outbox = api.app.get(MeterOutboxService);
    worker = api.app.get(BillingWorker);
    // The API starts the loop when Stripe is on; the tests drive rounds at explicit times instead.
    expect(worker.running).toBe(true);
    await worker.stop();
    ledgerHasAttempt = (await api.db.dataSource.query(`SELECT 1 FROM information_schema.columns WHERE table_name = 'usage_ledger' AND column_name = 'attempt'`)).length > 0;
    a = await signUp(api, 'alice');
    b = await signUp(api, 'bob');
  });
  afterAll(async () => {
    await api?.close();
    await stripe?.close();
  });

  describe('meter events', () => {
    it('closes an hour only after its end plus 5 minutes, one row per org and hour with spend, valued at the ledger sum', async () => {
      await spend(a.orgId, at(10 * MIN), 1_250_000);
      await spend(a.orgId, at(59 * MIN + 59_999), 2_000_001);
      await spend(a.orgId, at(HOUR), 7); // hour 1, not closed yet below
      await spend(b.orgId, at(30 * MIN), 333);
      await spend(b.orgId, at(31 * MIN), 0); // an unpriced call adds nothing

      expect(await outbox.closeHours(at(HOUR + 5 * MIN - 1))).toBe(0);
      expect(await outbox.closeHours(closed(0))).toBe(2);
      expect(await outbox.closeHours(closed(0))).toBe(0);

      expect(await meterRow(a.orgId, 0)).toMatchObject({ identifier: identifier(a.orgId, 0), value: '3250001', status: 'pending', attempts: 0 });
      expect(await meterRow(b.orgId, 0)).toMatchObject({ identifier: identifier(b.orgId, 0), value: '333', status: 'pending' });
      expect(await meterRow(a.orgId, 1)).toBeUndefined();
      expect(stripe.requests).toEqual([]);
    });

    it('creates a Stripe customer per org on demand, once, with the idempotency key fanout-customer-<org>, and delivers the hour', async () => {
      expect((await orgRow(a.orgId)).stripe_customer_id).toBeNull();
      const round = await worker.runOnce(closed(0));
      expect(round).toMatchObject({ closed: 0, claimed: 2, delivered: 2, duplicates: 0, errors: 0 });

      const customerCalls = stripe.requestsTo('/v1/customers');
      expect(customerCalls.map((r) => r.idempotencyKey).sort()).toEqual([`fanout-customer-${a.orgId}`, `fanout-customer-${b.orgId}`].sort());
      const aCustomer = (await orgRow(a.orgId)).stripe_customer_id!;
      const bCustomer = (await orgRow(b.orgId)).stripe_customer_id!;
      expect(aCustomer).toMatch(/^cus_/);
      expect(bCustomer).not.toBe(aCustomer);
      expect(stripe.customers.get(aCustomer)?.metadata).toEqual({ org_id: a.orgId });

      expect(stripe.meterEvents).toEqual(
        expect.arrayContaining([
          { eventName: 'fanout_spend', identifier: identifier(a.orgId, 0), timestamp: hour(0).getTime() / 1000, customer: aCustomer, value: '3250001' },
          { eventName: 'fanout_spend', identifier: identifier(b.orgId, 0), timestamp: hour(0).getTime() / 1000, customer: bCustomer, value: '333' },
        ]),
      );
      expect(stripe.meterEvents).toHaveLength(2);
      expect(await meterRow(a.orgId, 0)).toMatchObject({ status: 'delivered', attempts: 1, delivered_at: closed(0), last_error: null });

      // The next hour reuses the stored customer: no second create.
      await worker.runOnce(closed(1));
      expect(stripe.requestsTo('/v1/customers')).toHaveLength(2);
      expect(stripe.customers.size).toBe(2);
      expect(await meterRow(a.orgId, 1)).toMatchObject({ status: 'delivered', value: '7' });
    });

    it('a send whose answer is lost (Stripe took it) is resent after the backoff, Stripe answers duplicate, and it counts as delivered', async () => {
      await spend(a.orgId, at(2 * HOUR + 1), 500_000);
      stripe.acceptThenFail(1);
      expect(await worker.runOnce(closed(2))).toMatchObject({ closed: 1, claimed: 1, delivered: 0, errors: 1 });
      const pending = await meterRow(a.orgId, 2);
      expect(pending).toMatchObject({ status: 'pending', attempts: 1 });
      expect(pending!.last_error).toMatch(/^500 /);
      expect(pending!.next_attempt_at).toEqual(new Date(closed(2).getTime() + 30_000));

      // Not before the backoff.
      expect(await worker.runOnce(new Date(closed(2).getTime() + 29_999))).toMatchObject({ claimed: 0 });
      expect(await worker.runOnce(new Date(closed(2).getTime() + 30_000))).toMatchObject({ claimed: 1, delivered: 1, duplicates: 1 });
      expect(await meterRow(a.orgId, 2)).toMatchObject({ status: 'delivered', attempts: 2, last_error: null });
      const sends = stripe.requestsTo('/v1/billing/meter_events').filter((r) => r.form.identifier === identifier(a.orgId, 2));
      expect(sends.map((r) => r.status)).toEqual([500, 400]);
      expect(stripe.meterEvents.filter((e) => e.identifier === identifier(a.orgId, 2))).toHaveLength(1);
    });

    it('a crash after the send but before marking it delivered (row still pending) resends the same identifier once more: billed once', async () => {
      // The state a crash between Stripe's answer and the UPDATE leaves: attempt counted, row pending.
      await api.db.dataSource.query(`UPDATE stripe_meter_events SET status = 'pending', delivered_at = NULL, next_attempt_at = $2 WHERE org_id = $1 AND hour <= $3`, [
        a.orgId,
        closed(2),
        hour(1),
      ]);
      const round = await worker.runOnce(new Date(closed(2).getTime() + 60_000));
      expect(round).toMatchObject({ claimed: 2, delivered: 2, duplicates: 2, errors: 0 });
      expect(await meterRow(a.orgId, 0)).toMatchObject({ status: 'delivered', attempts: 2 });

      // Exactly one billed value per org-hour, equal to the ledger's sums.
      const identifiers = stripe.meterEvents.map((e) => e.identifier);
      expect(new Set(identifiers).size).toBe(identifiers.length);
      const aCustomer = (await orgRow(a.orgId)).stripe_customer_id!;
      const bCustomer = (await orgRow(b.orgId)).stripe_customer_id!;
      expect(billedBy(aCustomer)).toBe(await ledgerSum(a.orgId, hour(3)));
      expect(billedBy(bCustomer)).toBe(await ledgerSum(b.orgId, hour(3)));
      expect(billedBy(aCustomer)).toBe(1_250_000 + 2_000_001 + 7 + 500_000);
    });

    it('500s are retried with exponential backoff (30 s, 60 s, ...) and then delivered', async () => {
      await spend(b.orgId, at(3 * HOUR + 5 * MIN), 42_000);
      stripe.failNext(2);
      const t = closed(3).getTime();
      expect(await worker.runOnce(new Date(t))).toMatchObject({ closed: 1, claimed: 1, errors: 1 });
      expect(await meterRow(b.orgId, 3)).toMatchObject({ status: 'pending', attempts: 1, next_attempt_at: new Date(t + 30_000) });
      expect(await worker.runOnce(new Date(t + 30_000))).toMatchObject({ claimed: 1, errors: 1 });
      expect(await meterRow(b.orgId, 3)).toMatchObject({ status: 'pending', attempts: 2, next_attempt_at: new Date(t + 90_000) });
      expect(await worker.runOnce(new Date(t + 89_999))).toMatchObject({ claimed: 0 });
      expect(await worker.runOnce(new Date(t + 90_000))).toMatchObject({ claimed: 1, delivered: 1, duplicates: 0 });
      expect(await meterRow(b.orgId, 3)).toMatchObject({ status: 'delivered', attempts: 3, last_error: null });
      expect(stripe.meterEvents.filter((e) => e.identifier === identifier(b.orgId, 3)).map((e) => e.value)).toEqual(['42000']);
    });

    it('gives up after 8 failed attempts: status failed with the last error, never sent again', async () => {
      await spend(b.orgId, at(4 * HOUR), 9);
      stripe.failNext(8, 503);
      let t = closed(4).getTime();
      for (let attempt = 1; attempt <= 8; attempt++) {
        expect(await worker.runOnce(new Date(t))).toMatchObject({ claimed: 1, errors: 1 });
        t = (await meterRow(b.orgId, 4))!.next_attempt_at.getTime();
      }
      const row = await meterRow(b.orgId, 4);
      expect(row).toMatchObject({ status: 'failed', attempts: 8 });
      expect(row!.last_error).toMatch(/^503 .*injected failure/);
      expect(await worker.runOnce(new Date(t + 24 * HOUR))).toMatchObject({ claimed: 0 });
      expect(stripe.meterEvents.some((e) => e.identifier === identifier(b.orgId, 4))).toBe(false);
    });

    it('two rounds at once send each org-hour once; a row another round holds is skipped, not waited for', async () => {
      const before = stripe.requestsTo('/v1/billing/meter_events').length;
      for (const org of [a, b]) for (let i = 0; i < 3; i++) await spend(org.orgId, at(5 * HOUR + i * MIN), 1000 + i);
      const [c1, c2] = await Promise.all([outbox.closeHours(closed(5)), outbox.closeHours(closed(5))]);
      expect(c1 + c2).toBe(2);

      // Another round is busy with org A's row: this one sends B's and returns.
      const holder = api.db.dataSource.createQueryRunner();
      await holder.startTransaction();
      try {
        await holder.query(`SELECT 1 FROM stripe_meter_events WHERE org_id = $1 AND hour = $2 FOR UPDATE`, [a.orgId, hour(5)]);
        expect(await outbox.sendDue(closed(5))).toMatchObject({ claimed: 1, delivered: 1 });
        expect(await meterRow(a.orgId, 5)).toMatchObject({ status: 'pending', attempts: 0 });
      } finally {
        await holder.rollbackTransaction();
        await holder.release();
      }
      const [r1, r2] = await Promise.all([outbox.sendDue(closed(5)), outbox.sendDue(closed(5))]);
      expect(r1.claimed + r2.claimed).toBe(1);
      expect(stripe.requestsTo('/v1/billing/meter_events').length - before).toBe(2);
      expect(stripe.meterEvents.filter((e) => e.identifier === identifier(a.orgId, 5)).map((e) => e.value)).toEqual(['3003']);
      expect(stripe.meterEvents.filter((e) => e.identifier === identifier(b.orgId, 5)).map((e) => e.value)).toEqual(['3003']);
    });

    it('the worker loop, when running, closes and sends on its own (wall clock)', async () => {
      const c = await signUp(api, 'carol');
      await spend(c.orgId, new Date(Date.now() - 2 * HOUR), 77);
      worker.start();
      try {
        await expect.poll(() => stripe.meterEvents.filter((e) => e.identifier.includes(c.orgId)).map((e) => e.value), { timeout: 10_000 }).toEqual(['77']);
      } finally {
        await worker.stop();
      }
      expect(worker.running).toBe(false);
    });
  });

  describe('webhooks', () => {
    let aCustomer: string;
    beforeAll(async () => {
      aCustomer = (await orgRow(a.orgId)).stripe_customer_id!;
      await api.db.dataSource.query(`UPDATE organizations SET monthly_budget_micros = 100000000 WHERE id = $1`, [a.orgId]);
    });
    const webhookRows = async () => Number((await api.db.dataSource.query(`SELECT count(*)::int AS n FROM stripe_webhook_events`))[0].n);

    it('a bad, stale or missing signature answers 400 and changes nothing', async () => {
      const before = [await orgRow(a.orgId), await orgRow(b.orgId)];
      const body = event('checkout.session.completed', { object: 'checkout.session', mode: 'payment', payment_status: 'paid', currency: 'usd', amount_total: 5000, customer: aCustomer });
      const wrongSecret = await postWebhook(api, body, sign(body, 'whsec_not_the_secret'));
      const tampered = await postWebhook(api, body.replace('5000', '500000'), sign(body));
      const stale = await postWebhook(api, body, signer.webhooks.generateTestHeaderString({ payload: body, secret: WEBHOOK_SECRET, timestamp: Math.floor(Date.now() / 1000) - 3600 }));
      const missing = await postWebhook(api, body, null);
      for (const res of [wrongSecret, tampered, stale, missing]) {
        expect(res.status).toBe(400);
        expect(res.body.error?.code).toBe('BAD_USER_INPUT');
        expect(res.body.error?.message).toMatch(/stripe-signature/);
      }
      expect(await webhookRows()).toBe(0);
      expect([await orgRow(a.orgId), await orgRow(b.orgId)]).toEqual(before);
    });

    it('checkout.session.completed adds prepaid credit to the monthly budget once, however often and concurrently it is delivered', async () => {
      const bBefore = await orgRow(b.orgId);
      const body = event(
        'checkout.session.completed',
        { id: 'cs_test_1', object: 'checkout.session', mode: 'payment', payment_status: 'paid', currency: 'usd', amount_total: 5000, customer: aCustomer, metadata: { org_id: a.orgId } },
        'evt_credit_once',
      );
      const first = await postWebhook(api, body, sign(body));
      expect(first).toEqual({ status: 200, body: { received: true, duplicate: false, outcome: 'credit +$50.00: monthly budget $100.00 -> $150.00' } });
      const again = await Promise.all([1, 2, 3].map(() => postWebhook(api, body, sign(body))));
      for (const res of again) expect(res.body).toMatchObject({ received: true, duplicate: true, outcome: first.body.outcome });
      expect((await orgRow(a.orgId)).monthly_budget_micros).toBe('150000000');
      expect(await orgRow(b.orgId)).toEqual(bBefore);
      expect(await api.db.dataSource.query(`SELECT id, type, org_id, outcome FROM stripe_webhook_events WHERE id = 'evt_credit_once'`)).toEqual([
        { id: 'evt_credit_once', type: 'checkout.session.completed', org_id: a.orgId, outcome: first.body.outcome },
      ]);
    });

    it('the same redelivered concurrently from the start is still applied once', async () => {
      const body = event('checkout.session.completed', { object: 'checkout.session', mode: 'payment', payment_status: 'paid', currency: 'usd', amount_total: 1234, customer: aCustomer });
      const results = await Promise.all(Array.from({ length: 6 }, () => postWebhook(api, body, sign(body))));
      expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
      expect(results.filter((r) => r.body.duplicate === false)).toHaveLength(1);
      expect((await orgRow(a.orgId)).monthly_budget_micros).toBe(String(150_000_000 + 1234 * 10_000));
    });

    it('credit for an org without a cap is recorded and leaves it uncapped; a checkout session finds its org by client_reference_id and links the customer', async () => {
      const c = await signUp(api, 'cora');
      const body = event('checkout.session.completed', {
        object: 'checkout.session',
        mode: 'payment',
        payment_status: 'paid',
        currency: 'usd',
        amount_total: 2500,
        customer: 'cus_new_from_checkout',
        client_reference_id: c.orgId,
      });
      const res = await postWebhook(api, body, sign(body));
      expect(res.body.outcome).toBe('credit +$25.00 recorded: no monthly budget set, left uncapped; customer cus_new_from_checkout linked');
      expect(await orgRow(c.orgId)).toMatchObject({ monthly_budget_micros: null, stripe_customer_id: 'cus_new_from_checkout' });
    });

    it('invoice.payment_failed puts the org on billing hold, invoice.paid lifts it; the other org is untouched', async () => {
      const failed = event('invoice.payment_failed', { id: 'in_1', object: 'invoice', customer: aCustomer, status: 'open' });
      expect((await postWebhook(api, failed, sign(failed))).body.outcome).toBe('billing hold on: invoice in_1 payment failed');
      expect((await orgRow(a.orgId)).billing_hold).toBe(true);
      expect((await orgRow(b.orgId)).billing_hold).toBe(false);
      const billing = await api.gql<{ me: { organization: { billing: { hold: boolean; hasCustomer: boolean; enabled: boolean } } } }>(
        '{ me { organization { billing { enabled hasCustomer hold plan } } } }',
        {},
        a.token,
      );
      expect(billing.data?.me.organization.billing).toEqual({ enabled: true, hasCustomer: true, hold: true, plan: null });

      const paid = event('invoice.paid', { id: 'in_1', object: 'invoice', customer: aCustomer, status: 'paid' });
      expect((await postWebhook(api, paid, sign(paid))).body.outcome).toBe('billing hold off: invoice in_1 paid');
      expect((await orgRow(a.orgId)).billing_hold).toBe(false);
    });

    it('customer.subscription.updated sets the plan (price lookup_key) and max_concurrency (price metadata)', async () => {
      const bBefore = await orgRow(b.orgId);
      const body = event('customer.subscription.updated', {
        id: 'sub_1',
        object: 'subscription',
        customer: aCustomer,
        status: 'active',
        items: { object: 'list', data: [{ id: 'si_1', price: { id: 'price_1', lookup_key: 'team', metadata: { max_concurrency: '32' }, product: 'prod_1' } }] },
      });
      expect((await postWebhook(api, body, sign(body))).body.outcome).toBe('plan team, max concurrency 32 (subscription active)');
      expect(await orgRow(a.orgId)).toMatchObject({ plan: 'team', max_concurrency: 32 });
      expect(await orgRow(b.orgId)).toEqual(bBefore);

      // Plan from the (expanded) product's metadata; a bad max_concurrency is reported, not applied.
      const other = event('customer.subscription.updated', {
        object: 'subscription',
        customer: aCustomer,
        status: 'active',
        items: { data: [{ price: { lookup_key: null, metadata: {}, product: { id: 'prod_2', metadata: { plan: 'scale', max_concurrency: 'lots' } } } }] },
      });
      expect((await postWebhook(api, other, sign(other))).body.outcome).toBe(
        'plan scale, max_concurrency metadata "lots" ignored (expected an integer 1-10000) (subscription active)',
      );
      expect(await orgRow(a.orgId)).toMatchObject({ plan: 'scale', max_concurrency: 32 });
    });

    it('cross-tenant: the customer decides the org; a session naming org B with org A\'s customer changes only A; unknown customers change nothing', async () => {
      const aBefore = await orgRow(a.orgId);
      const bBefore = await orgRow(b.orgId);
      const spoof = event('checkout.session.completed', {
        object: 'checkout.session',
        mode: 'payment',
        payment_status: 'paid',
        currency: 'usd',
        amount_total: 100,
        customer: aCustomer,
        client_reference_id: b.orgId,
        metadata: { org_id: b.orgId },
      });
      await postWebhook(api, spoof, sign(spoof));
      expect(await orgRow(b.orgId)).toEqual(bBefore);
      expect(Number((await orgRow(a.orgId)).monthly_budget_micros)).toBe(Number(aBefore.monthly_budget_micros) + 100 * 10_000);

      // A session naming org B while B already has a different customer is not re-pointed.
      const hijack = event('checkout.session.completed', {
        object: 'checkout.session',
        mode: 'payment',
        payment_status: 'paid',
        currency: 'usd',
        amount_total: 100,
        customer: 'cus_someone_else',
        metadata: { org_id: b.orgId },
      });
      expect((await postWebhook(api, hijack, sign(hijack))).body.outcome).toBe('ignored: unknown customer');
      const unknown = event('invoice.payment_failed', { id: 'in_x', object: 'invoice', customer: 'cus_unknown' });
      const res = await postWebhook(api, unknown, sign(unknown));
      expect(res).toMatchObject({ status: 200, body: { duplicate: false, outcome: 'ignored: unknown customer' } });
      expect(await orgRow(b.orgId)).toEqual(bBefore);
      expect(await orgRow(a.orgId)).toMatchObject({ billing_hold: false });
      expect(await api.db.dataSource.query(`SELECT org_id FROM stripe_webhook_events WHERE outcome = 'ignored: unknown customer'`)).toEqual([{ org_id: null }, { org_id: null }]);

      // Billing state is only shown on the caller's own org.
      const other = await api.gql<{ organization: { billing: unknown } }>('query($id: ID!) { organization(id: $id) { billing { hold } } }', { id: a.orgId }, b.token);
      expect(other.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    });

    it('other event types are recorded once and ignored', async () => {
      const body = event('customer.created', { id: 'cus_z', object: 'customer' }, 'evt_unhandled');
      expect((await postWebhook(api, body, sign(body))).body).toEqual({ received: true, duplicate: false, outcome: 'ignored: unhandled event type' });
      expect((await postWebhook(api, body, sign(body))).body.duplicate).toBe(true);
    });
  });
});

describe('Stripe billing off (no STRIPE_SECRET_KEY)', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi();
  });
  afterAll(() => api?.close());

  it('the webhook route answers 404 with what to set; no worker runs and nothing changes', async () => {
    const user = await signUp(api, 'dora');
    const body = event('invoice.payment_failed', { id: 'in_1', object: 'invoice', customer: 'cus_x' });
    const res = await postWebhook(api, body, sign(body));
    expect(res.status).toBe(404);
    expect(res.body.error?.message).toMatch(/Stripe billing is off on this server: set STRIPE_SECRET_KEY/);
    expect(api.app.get(BillingWorker).running).toBe(false);
    expect(await api.db.dataSource.query(`SELECT count(*)::int AS n FROM stripe_webhook_events`)).toEqual([{ n: 0 }]);
    const billing = await api.gql<{ me: { organization: { billing: unknown } } }>('{ me { organization { billing { enabled hasCustomer hold plan } } } }', {}, user.token);
    expect(billing.data?.me.organization.billing).toEqual({ enabled: false, hasCustomer: false, hold: false, plan: null });
  });
});
