import { queryReturning } from '#libs/database';
import type { DataSource, EntityManager } from 'typeorm';
import { mintRunnerToken } from '../runner-token.js';
import type { StartRequest } from '../executors/executor.js';

interface OrgRow {
  id: string;
  max_concurrency: number;
  running: number;
  /** Monthly cap minus this month's spend and reservations; null without a cap. */
  budget_room: string | null;
}

interface CampaignRow {
  id: string;
  org_id: string;
  max_concurrency: number;
  running: number;
  queued: number;
  /** Cap minus spend and reservations. */
  budget_room: string;
  /** Estimated cost of one execution (the plan's expected cost / executions), reserved at dispatch. */
  estimate: string;
}

interface Budget {
  /** Micro-dollars an org may still reserve (Infinity without a cap). */
  orgRoom: Map<string, number>;
}

/**
 * Claims queued executions of running campaigns, at most `limit`, fairly:
 * one at a time to the org with the fewest running (including what this
 * claim already gave it), never above an org's or a campaign's cap.
 *
 * The org rows are locked (FOR UPDATE SKIP LOCKED) for the transaction, so
 * two schedulers never count the same org's running executions at once: caps
 * hold with any number of schedulers. Each claimed execution gets a new
 * attempt and a fresh runner token whose hash is stored with it.
 *
 * Budgets: an execution starts only when spent + reserved + its estimate
 * stays within its campaign's cap and its org's monthly cap; the estimate is
 * reserved on both in this transaction and settled when the attempt ends.
 */
export async function claimExecutions(dataSource: DataSource, limit: number): Promise<StartRequest[]> {
  if (limit <= 0) return [];
  return dataSource.transaction(async (tx) => {
    const orgs: OrgRow[] = await tx.query(
      `SELECT o.id, o.max_concurrency,
              (SELECT count(*) FROM executions r WHERE r.org_id = o.id AND r.status IN ('dispatching', 'running'))::int AS running,
              o.monthly_budget_micros - COALESCE((SELECT s.spent_micros + s.reserved_micros FROM org_spend s
                                                   WHERE s.org_id = o.id AND s.month = date_trunc('month', now() AT TIME ZONE 'UTC')::date), 0) AS budget_room
         FROM organizations o
        WHERE EXISTS (SELECT 1 FROM executions e JOIN campaigns c ON c.id = e.campaign_id
                       WHERE e.org_id = o.id AND e.status = 'queued' AND c.status = 'running'
                         AND (e.next_attempt_at IS NULL OR e.next_attempt_at <= now()))
        ORDER BY running, o.id
        FOR UPDATE OF o SKIP LOCKED`,
    );
    if (orgs.length === 0) return [];
    const campaigns: CampaignRow[] = await tx.query(
      `SELECT c.id, c.org_id, c.max_concurrency,
              count(*) FILTER (WHERE e.status IN ('dispatching', 'running'))::int AS running,
              count(*) FILTER (WHERE e.status = 'queued' AND (e.next_attempt_at IS NULL OR e.next_attempt_at <= now()))::int AS queued,
              c.budget_micros - c.spent_micros - c.reserved_micros AS budget_room,
              COALESCE(round((c.plan->'estimate'->>'expectedUsd')::numeric * 1000000 / NULLIF(c.execution_count, 0)), 0)::bigint AS estimate
         FROM campaigns c JOIN executions e ON e.campaign_id = c.id
        WHERE c.status = 'running' AND c.org_id = ANY($1::uuid[])
        GROUP BY c.id, c.org_id, c.max_concurrency, c.created_at, c.budget_micros, c.spent_micros, c.reserved_micros, c.plan, c.execution_count
        ORDER BY c.created_at, c.id`,
      [orgs.map((o) => o.id)],
    );
    const budget: Budget = { orgRoom: new Map(orgs.map((o) => [o.id, o.budget_room === null ? Infinity : Number(o.budget_room)])) };
    const grants = plan(orgs, campaigns, limit, budget);
    const estimates = new Map(campaigns.map((c) => [c.id, Number(c.estimate)]));
    const claimed: StartRequest[] = [];
    for (const [campaignId, count] of grants) claimed.push(...(await claimFromCampaign(tx, campaignId, count, estimates.get(campaignId) ?? 0)));
    return claimed;
  });
}

/** Round-robin grants: each step gives one execution to the org with the fewest running (ties: order), within the budgets. */
function plan(orgs: OrgRow[], campaigns: CampaignRow[], limit: number, budget: Budget): Map<string, number> {
  const grants = new Map<string, number>();
  const load = new Map(orgs.map((o) => [o.id, o.running]));
  const byOrg = new Map<string, CampaignRow[]>();
  for (const c of campaigns) (byOrg.get(c.org_id) ?? byOrg.set(c.org_id, []).get(c.org_id)!).push(c);
  let left = limit;
  while (left > 0) {
    const fits = (c: CampaignRow) => room(c, grants) > 0 && Number(c.estimate) <= budget.orgRoom.get(c.org_id)!;
    const candidates = orgs
      .filter((o) => load.get(o.id)! < o.max_concurrency && (byOrg.get(o.id) ?? []).some(fits))
      .sort((a, b) => load.get(a.id)! - load.get(b.id)!);
    const org = candidates[0];
    if (!org) break;
    const campaign = byOrg.get(org.id)!.find(fits)!;
    grants.set(campaign.id, (grants.get(campaign.id) ?? 0) + 1);
    load.set(org.id, load.get(org.id)! + 1);
    budget.orgRoom.set(org.id, budget.orgRoom.get(org.id)! - Number(campaign.estimate));
    left--;
  }
  return grants;
}

function room(c: CampaignRow, grants: Map<string, number>): number {
  const granted = grants.get(c.id) ?? 0;
  const estimate = Number(c.estimate);
  // spent + reserved + (granted + 1) x estimate <= cap; with no estimate only the cap itself (spent < cap) stops it.
  const affordable = estimate > 0 ? Math.floor(Number(c.budget_room) / estimate) : Number(c.budget_room) > 0 ? Infinity : 0;
  return Math.min(c.max_concurrency - c.running - granted, c.queued - granted, affordable - granted);
}

async function claimFromCampaign(tx: EntityManager, campaignId: string, count: number, estimate: number): Promise<StartRequest[]> {
  const rows: { id: string; org_id: string }[] = await tx.query(
    `SELECT id, org_id FROM executions
      WHERE campaign_id = $1 AND status = 'queued' AND (next_attempt_at IS NULL OR next_attempt_at <= now())
      ORDER BY created_at, id LIMIT $2 FOR UPDATE SKIP LOCKED`,
    [campaignId, count],
  );
  if (rows.length === 0) return [];
  const tokens = rows.map(() => mintRunnerToken());
  const updated = await queryReturning<{ id: string; attempt: number; org_id: string }>(
    tx,
    `UPDATE executions AS e SET status = 'dispatching', attempt = e.attempt + 1, dispatched_at = now(), heartbeat_at = NULL,
            runner_token_hash = v.hash, reserved_micros = $3, updated_at = now()
       FROM unnest($1::uuid[], $2::bytea[]) AS v(id, hash)
      WHERE e.id = v.id AND e.status = 'queued'
      RETURNING e.id, e.attempt, e.org_id`,
    [rows.map((r) => r.id), tokens.map((t) => t.hash), estimate],
  );
  if (estimate > 0 && updated.length > 0) {
    const reserved = estimate * updated.length;
    await tx.query('UPDATE campaigns SET reserved_micros = reserved_micros + $2 WHERE id = $1', [campaignId, reserved]);
    await tx.query(
      `INSERT INTO org_spend (org_id, month, reserved_micros) VALUES ($1, date_trunc('month', now() AT TIME ZONE 'UTC')::date, $2)
       ON CONFLICT (org_id, month) DO UPDATE SET reserved_micros = org_spend.reserved_micros + EXCLUDED.reserved_micros`,
      [updated[0]!.org_id, reserved],
    );
  }
  const tokenOf = new Map(rows.map((r, i) => [r.id, tokens[i]!.token]));
  return updated.map((u) => ({ executionId: u.id, attempt: u.attempt, orgId: u.org_id, token: tokenOf.get(u.id)! }));
}
