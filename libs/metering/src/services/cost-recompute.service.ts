import { DomainException } from '#libs/common';
import { isUuid, requireOrgId } from '#libs/database';
import type { Principal } from '#libs/identity';
import { callCostMicros, type KindPrices, type PriceBookVersion } from '#libs/metrics';
import { LOGGER } from '#libs/observability';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { DataSource, EntityManager } from 'typeorm';

export interface CostRecomputeResult {
  id: string;
  campaignId: string;
  /** Ledger rows re-priced (every call of the campaign). */
  calls: number;
  /** Rows whose cost, price version or unpriced flag changed. */
  changedCalls: number;
  /** Rows with no price in force at their call time, after the recompute. */
  unpricedCalls: number;
  beforeMicros: number;
  afterMicros: number;
  createdAt: Date;
}

interface VersionRow {
  id: string;
  org_id: string | null;
  model: string;
  effective_from: Date;
  input: string;
  cache_read: string;
  cache_write: string;
  output: string;
}

interface LedgerRow {
  execution_id: string;
  attempt: number;
  event_id: string;
  model: string;
  call_time: Date;
  uncached: string;
  cache_read: string;
  cache_write: string;
  output: string;
  reasoning: string;
  cost_micros: string;
  unpriced: boolean;
  price_id: string | null;
  /** First day of the UTC month it was recorded in. */
  month: string;
}

/**
 * The price versions one org pays, per model: its overrides, then the
 * platform defaults, each newest first (latest created first among equal
 * times), so the first one effective at or before a time is in force then
 * (`priceVersionAt` of libs/metrics, with the org's override winning).
 */
class OrgPriceVersions {
  private readonly byModel = new Map<string, { org: PriceBookVersion[]; platform: PriceBookVersion[] }>();

  constructor(rows: readonly VersionRow[]) {
    for (const row of rows) {
      const entry = this.byModel.get(row.model) ?? { org: [], platform: [] };
      const prices: KindPrices = { uncachedInput: Number(row.input), cacheRead: Number(row.cache_read), cacheWrite: Number(row.cache_write), output: Number(row.output) };
      (row.org_id ? entry.org : entry.platform).push({ version: row.id, model: row.model, effectiveFrom: row.effective_from.getTime(), prices });
      this.byModel.set(row.model, entry);
    }
  }

  /** The version in force for `model` at epoch ms `time`, or null: the call is then unpriced, never priced at 0 silently. */
  at(model: string, time: number): PriceBookVersion | null {
    const entry = this.byModel.get(model);
    if (!entry) return null;
    return entry.org.find((v) => v.effectiveFrom <= time) ?? entry.platform.find((v) => v.effectiveFrom <= time) ?? null;
  }
}

/** Ledger rows loaded at once: bounded memory for a campaign of any size. */
const CHUNK_ROWS = 20_000;
const RETRYABLE = new Set(['40P01', '40001']);

/**
 * Re-prices a campaign's ledger with the price book as it stands now: each
 * call with the version in force at its call time (the org's override first,
 * else the platform default; unpriced when neither). Prices never change
 * past costs on their own; this is the explicit, logged action that does,
 * recorded in cost_recomputes with the totals before and after.
 */
@Injectable()
export class CostRecomputeService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async recompute(principal: Principal, campaignId: string): Promise<CostRecomputeResult> {
    const orgId = requireOrgId(principal.orgId);
    if (!isUuid(campaignId)) throw DomainException.notFound('campaign', campaignId);
    for (let attempt = 1; ; attempt++) {
      try {
        const result = await this.dataSource.transaction((tx) => this.recomputeIn(tx, orgId, principal.userId, campaignId));
        this.logger.info(
          {
            recomputeId: result.id,
            orgId,
            campaignId,
            userId: principal.userId,
            apiKeyId: principal.apiKeyId,
            calls: result.calls,
            changedCalls: result.changedCalls,
            unpricedCalls: result.unpricedCalls,
            beforeMicros: result.beforeMicros,
            afterMicros: result.afterMicros,
          },
          'campaign costs recomputed',
        );
        return result;
      } catch (err) {
        // A deadlock with ingest (which may lock an execution before the campaign) is retried whole.
        const code = (err as { driverError?: { code?: string }; code?: string }).driverError?.code ?? (err as { code?: string }).code;
        if (attempt >= 3 || !code || !RETRYABLE.has(code)) throw err;
      }
    }
  }

  private async recomputeIn(tx: EntityManager, orgId: string, userId: string | null, campaignId: string): Promise<CostRecomputeResult> {
    // The campaign row first: ingest moves spent_micros under the same lock, so
    // the delta applied below cannot race a concurrent recompute or lose an increment.
    const campaign = await tx.query(`SELECT id FROM campaigns WHERE id = $1 AND org_id = $2 FOR UPDATE`, [campaignId, orgId]);
    if (campaign.length === 0) throw DomainException.notFound('campaign', campaignId);

    const perExecution: { execution_id: string; calls: number }[] = await tx.query(
      `SELECT execution_id, count(*)::int AS calls FROM usage_ledger WHERE org_id = $1 AND campaign_id = $2 GROUP BY execution_id ORDER BY execution_id`,
      [orgId, campaignId],
    );
    const models: string[] = (await tx.query(`SELECT DISTINCT model FROM usage_ledger WHERE org_id = $1 AND campaign_id = $2`, [orgId, campaignId])).map(
      (r: { model: string }) => r.model,
    );
    const book = new OrgPriceVersions(
      models.length === 0
        ? []
        : await tx.query(
            `SELECT id, org_id, model, effective_from, input_micros_per_mtok::text AS input, cache_read_micros_per_mtok::text AS cache_read,
                    cache_write_micros_per_mtok::text AS cache_write, output_micros_per_mtok::text AS output
               FROM model_prices WHERE model = ANY($1::text[]) AND (org_id = $2 OR org_id IS NULL)
              ORDER BY effective_from DESC, created_at DESC, id DESC`,
            [models, orgId],
          ),
    );

    let calls = 0;
    let changedCalls = 0;
    let unpricedCalls = 0;
    let beforeMicros = 0;
    let afterMicros = 0;
    /** The org's monthly counters move with the calls they counted (by the month each was recorded in). */
    const monthDelta = new Map<string, number>();
    for (const executionIds of chunksByRows(perExecution, CHUNK_ROWS)) {
      const rows: LedgerRow[] = await tx.query(
        `SELECT execution_id, attempt, event_id, model, call_time, uncached_input_tokens::text AS uncached, cache_read_tokens::text AS cache_read,
                cache_write_tokens::text AS cache_write, output_tokens::text AS output, reasoning_tokens::text AS reasoning,
                cost_micros::text AS cost_micros, unpriced, price_id, to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-01') AS month
           FROM usage_ledger WHERE execution_id = ANY($1::uuid[]) AND org_id = $2 AND campaign_id = $3`,
        [executionIds, orgId, campaignId],
      );
      const changed = { executionId: [] as string[], attempt: [] as number[], eventId: [] as string[], cost: [] as number[], unpriced: [] as boolean[], priceId: [] as (string | null)[] };
      for (const row of rows) {
        const time = row.call_time.getTime();
        const version = book.at(row.model, time);
        const usage = {
          uncachedInput: Number(row.uncached),
          cacheRead: Number(row.cache_read),
          cacheWrite: Number(row.cache_write),
          output: Number(row.output),
          reasoning: Number(row.reasoning),
        };
        const cost = version ? callCostMicros([version], { model: row.model, time, usage }) : 0;
        const before = Number(row.cost_micros);
        calls++;
        beforeMicros += before;
        afterMicros += cost;
        if (cost !== before) monthDelta.set(row.month, (monthDelta.get(row.month) ?? 0) + cost - before);
        if (!version) unpricedCalls++;
        const priceId = version?.version ?? null;
        if (cost !== before || row.unpriced !== !version || row.price_id !== priceId) {
          changedCalls++;
          changed.executionId.push(row.execution_id);
          changed.attempt.push(row.attempt);
          changed.eventId.push(row.event_id);
          changed.cost.push(cost);
          changed.unpriced.push(!version);
          changed.priceId.push(priceId);
        }
      }
      if (changed.executionId.length === 0) continue;
      await tx.query(
        `UPDATE usage_ledger l SET cost_micros = v.cost, unpriced = v.unpriced, price_id = v.price_id
           FROM unnest($1::uuid[], $2::int[], $3::text[], $4::bigint[], $5::boolean[], $6::uuid[]) AS v(execution_id, attempt, event_id, cost, unpriced, price_id)
          WHERE l.execution_id = v.execution_id AND l.attempt = v.attempt AND l.event_id = v.event_id`,
        [changed.executionId, changed.attempt, changed.eventId, changed.cost, changed.unpriced, changed.priceId],
      );
      // An execution's cost is the sum of its calls, every attempt's (the ones just re-priced included).
      await tx.query(
        `UPDATE executions x SET cost_micros = s.cost, updated_at = now()
           FROM (SELECT execution_id, sum(cost_micros)::bigint AS cost FROM usage_ledger
                  WHERE execution_id = ANY($1::uuid[]) GROUP BY execution_id) s
          WHERE x.id = s.execution_id AND x.org_id = $2 AND x.cost_micros IS DISTINCT FROM s.cost`,
        [[...new Set(changed.executionId)], orgId],
      );
    }

    // A delta, not the sum: spend moved by calls recorded meanwhile (not seen here) stays counted.
    if (afterMicros !== beforeMicros) {
      await tx.query(`UPDATE campaigns SET spent_micros = spent_micros + $2 WHERE id = $1`, [campaignId, afterMicros - beforeMicros]);
    }
    for (const [month, delta] of [...monthDelta].sort(([a], [b]) => a.localeCompare(b))) {
      if (delta !== 0) await tx.query(`UPDATE org_spend SET spent_micros = spent_micros + $3 WHERE org_id = $1 AND month = $2::date`, [orgId, month, delta]);
    }
    const id = randomUUID();
    const [logged]: { created_at: Date }[] = await tx.query(
      `INSERT INTO cost_recomputes (id, org_id, campaign_id, requested_by_user_id, calls, before_micros, after_micros)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING created_at`,
      [id, orgId, campaignId, userId, calls, beforeMicros, afterMicros],
    );
    return { id, campaignId, calls, changedCalls, unpricedCalls, beforeMicros, afterMicros, createdAt: logged!.created_at };
  }
}

/** Groups executions (in order) so that each group holds at most `maxRows` ledger rows, or one execution when a single one has more. */
function chunksByRows(perExecution: readonly { execution_id: string; calls: number }[], maxRows: number): string[][] {
  const chunks: string[][] = [];
  let current: string[] = [];
  let rows = 0;
  for (const { execution_id, calls } of perExecution) {
    if (current.length > 0 && rows + calls > maxRows) {
      chunks.push(current);
      current = [];
      rows = 0;
    }
    current.push(execution_id);
    rows += calls;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}
