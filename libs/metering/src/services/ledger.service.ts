import type { ModelUsage } from '#libs/contracts';
import { queryReturning } from '#libs/database';
import { callCostMicros, normaliseUsage } from '#libs/metrics';
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { loadPriceBook } from './price-book.js';

/** Shares of a cap at which an alert is raised, in percent. */
export const ALERT_THRESHOLDS = [50, 80, 100] as const;

export interface ModelCallInput {
  eventId: string;
  agentId: string;
  provider: string;
  model: string;
  /** ISO time of the call. */
  time: string;
  usage: ModelUsage;
}

export interface LedgerExecution {
  id: string;
  attempt: number;
  orgId: string;
  campaignId: string;
}

export interface RecordedSpend {
  /** Calls newly recorded (a redelivered call is not). */
  recorded: number;
  costMicros: number;
  unpriced: number;
}

interface Cap {
  scope: 'campaign' | 'org';
  campaignId: string | null;
  period: string | null;
  spentBefore: number;
  spent: number;
  cap: number | null;
}

/**
 * Records priced model calls, exactly once: one ledger row per call (unique
 * by execution and event id), and in the same transaction the campaign's and
 * the org's monthly spend counters move by what was actually inserted. A
 * call of a model with no price in force is recorded with its usage and
 * flagged unpriced. When a counter crosses 50 / 80 / 100 % of its cap an
 * alert row is raised (once per cap and threshold); at 100 % the campaign
 * (or every running campaign of the org) is paused by the budget, and the
 * scheduler cancels what still runs under it.
 *
 * Lock order: campaign row, then org_spend row, as the dispatcher's
 * reservation and the settlement take them, so these never deadlock.
 */
export async function recordModelCalls(tx: EntityManager, execution: LedgerExecution, calls: readonly ModelCallInput[]): Promise<RecordedSpend> {
  if (calls.length === 0) return { recorded: 0, costMicros: 0, unpriced: 0 };
  const book = await loadPriceBook(tx, execution.orgId, calls.map((c) => c.model));
  const columns = {
    eventId: [] as string[],
    agentId: [] as string[],
    provider: [] as string[],
    model: [] as string[],
    time: [] as string[],
    uncached: [] as number[],
    cacheRead: [] as number[],
    cacheWrite: [] as number[],
    output: [] as number[],
    reasoning: [] as number[],
    cost: [] as number[],
    unpriced: [] as boolean[],
    priceId: [] as (string | null)[],
  };
  for (const call of calls) {
    const usage = normaliseUsage(call.usage);
    const at = Date.parse(call.time);
    const price = book.at(call.model, at);
    columns.eventId.push(call.eventId);
    columns.agentId.push(call.agentId);
    columns.provider.push(call.provider);
    columns.model.push(call.model);
    columns.time.push(call.time);
    columns.uncached.push(usage.uncachedInput);
    columns.cacheRead.push(usage.cacheRead);
    columns.cacheWrite.push(usage.cacheWrite);
    columns.output.push(usage.output);
    columns.reasoning.push(usage.reasoning);
    columns.cost.push(price ? callCostMicros([{ version: price.priceId, model: call.model, effectiveFrom: 0, prices: price.prices }], { model: call.model, time: at, usage }) : 0);
    columns.unpriced.push(price === null);
    columns.priceId.push(price?.priceId ?? null);
  }
  const inserted: { cost_micros: string; unpriced: boolean }[] = await tx.query(
    `INSERT INTO usage_ledger (execution_id, attempt, event_id, org_id, campaign_id, agent_config_version_id, agent_name, mode, agent_id, provider, model, call_time,
                               uncached_input_tokens, cache_read_tokens, cache_write_tokens, output_tokens, reasoning_tokens, cost_micros, unpriced, price_id)
     SELECT x.id, $15, c.event_id, x.org_id, x.campaign_id, x.agent_config_version_id, x.agent_name, x.mode, c.agent_id, c.provider, c.model, c.time,
            c.uncached, c.cache_read, c.cache_write, c.output, c.reasoning, c.cost, c.unpriced, c.price_id
       FROM executions x,
            unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[], $7::bigint[], $8::bigint[], $9::bigint[], $10::bigint[], $11::bigint[],
                   $12::bigint[], $13::boolean[], $14::uuid[])
              AS c(event_id, agent_id, provider, model, time, uncached, cache_read, cache_write, output, reasoning, cost, unpriced, price_id)
      WHERE x.id = $1
     ON CONFLICT (execution_id, attempt, event_id) DO NOTHING
     RETURNING cost_micros, unpriced`,
    [
      execution.id,
      columns.eventId,
      columns.agentId,
      columns.provider,
      columns.model,
      columns.time,
      columns.uncached,
      columns.cacheRead,
      columns.cacheWrite,
      columns.output,
      columns.reasoning,
      columns.cost,
      columns.unpriced,
      columns.priceId,
      execution.attempt,
    ],
  );
  const cost = inserted.reduce((sum, row) => sum + Number(row.cost_micros), 0);
  const unpriced = inserted.filter((row) => row.unpriced).length;
  if (inserted.length === 0 || cost === 0) return { recorded: inserted.length, costMicros: cost, unpriced };

  const [campaign] = await queryReturning<{ spent: string; cap: string | null }>(
    tx,
    `UPDATE campaigns SET spent_micros = spent_micros + $2 WHERE id = $1 RETURNING spent_micros::bigint AS spent, budget_micros::bigint AS cap`,
    [execution.campaignId, cost],
  );
  if (!campaign) throw new Error(`ledger: campaign ${execution.campaignId} of execution ${execution.id} is missing`);
  const [org] = await tx.query(
    `INSERT INTO org_spend (org_id, month, spent_micros) VALUES ($1, date_trunc('month', now() AT TIME ZONE 'UTC')::date, $2)
     ON CONFLICT (org_id, month) DO UPDATE SET spent_micros = org_spend.spent_micros + EXCLUDED.spent_micros
     RETURNING spent_micros::bigint AS spent, to_char(month, 'YYYY-MM') AS period,
               (SELECT monthly_budget_micros FROM organizations WHERE id = $1)::bigint AS cap`,
    [execution.orgId, cost],
  );
  const caps: Cap[] = [
    { scope: 'campaign', campaignId: execution.campaignId, period: null, spentBefore: Number(campaign.spent) - cost, spent: Number(campaign.spent), cap: campaign.cap === null ? null : Number(campaign.cap) },
    { scope: 'org', campaignId: null, period: org.period, spentBefore: Number(org.spent) - cost, spent: Number(org.spent), cap: org.cap === null ? null : Number(org.cap) },
  ];
  for (const cap of caps) await raiseAlerts(tx, execution.orgId, cap);
  const [campaignCap, orgCap] = caps as [Cap, Cap];
  if (campaignCap.cap !== null && campaignCap.spent >= campaignCap.cap) {
    await tx.query(`UPDATE campaigns SET status = 'paused', pause_reason = 'budget', updated_at = now() WHERE id = $1 AND status = 'running'`, [execution.campaignId]);
  }
  if (orgCap.cap !== null && orgCap.spent >= orgCap.cap) {
    await tx.query(`UPDATE campaigns SET status = 'paused', pause_reason = 'org_budget', updated_at = now() WHERE org_id = $1 AND status = 'running'`, [execution.orgId]);
  }
  return { recorded: inserted.length, costMicros: cost, unpriced };
}

/** One alert per threshold crossed by this move of the counter; the dedupe key makes a concurrent or repeated crossing a no-op. */
async function raiseAlerts(tx: EntityManager, orgId: string, cap: Cap): Promise<void> {
  if (cap.cap === null || cap.cap <= 0) return;
  const crossed = ALERT_THRESHOLDS.filter((t) => cap.spentBefore * 100 < t * cap.cap! && cap.spent * 100 >= t * cap.cap!);
  if (crossed.length === 0) return;
  const key = (t: number) => (cap.scope === 'campaign' ? `campaign:${cap.campaignId}:${cap.cap}:${t}` : `org:${orgId}:${cap.period}:${cap.cap}:${t}`);
  await tx.query(
    `INSERT INTO budget_alerts (id, org_id, scope, campaign_id, period, threshold, dedupe_key, spent_micros, cap_micros, webhook_status, next_attempt_at)
     SELECT a.id, $1, $2, $3, $4, a.threshold, a.key, $5, $6,
            CASE WHEN o.alert_webhook_url IS NULL THEN 'none' ELSE 'pending' END, CASE WHEN o.alert_webhook_url IS NULL THEN NULL ELSE now() END
       FROM unnest($7::uuid[], $8::int[], $9::text[]) AS a(id, threshold, key), organizations o
      WHERE o.id = $1
     ON CONFLICT (dedupe_key) DO NOTHING`,
    [orgId, cap.scope, cap.campaignId, cap.period, cap.spent, cap.cap, crossed.map(() => randomUUID()), crossed, crossed.map(key)],
  );
}

/**
 * Settles the reservations of attempts that ended (graded, failed, cancelled):
 * the executions' reserved estimates leave the campaign's and the org's
 * reserved counters (the org's of the month the attempt was dispatched in).
 * Idempotent: a settled execution holds 0.
 */
export async function releaseReservations(db: EntityManager | { query: EntityManager['query'] }, executionIds: readonly string[]): Promise<void> {
  if (executionIds.length === 0) return;
  await db.query(
    `WITH ended AS (
       SELECT id, campaign_id, org_id, reserved_micros, date_trunc('month', COALESCE(dispatched_at, now()) AT TIME ZONE 'UTC')::date AS month
         FROM executions WHERE id = ANY($1::uuid[]) AND reserved_micros > 0 ORDER BY id FOR UPDATE
     ), cleared AS (
       UPDATE executions e SET reserved_micros = 0 FROM ended WHERE e.id = ended.id
     ), campaign_release AS (
       UPDATE campaigns c SET reserved_micros = GREATEST(0, c.reserved_micros - s.amount)
         FROM (SELECT campaign_id, sum(reserved_micros) AS amount FROM ended GROUP BY campaign_id) s WHERE c.id = s.campaign_id
     )
     UPDATE org_spend o SET reserved_micros = GREATEST(0, o.reserved_micros - s.amount)
       FROM (SELECT org_id, month, sum(reserved_micros) AS amount FROM ended GROUP BY org_id, month) s
      WHERE o.org_id = s.org_id AND o.month = s.month`,
    [executionIds],
  );
}
