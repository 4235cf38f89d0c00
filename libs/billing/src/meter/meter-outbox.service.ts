import { queryReturning } from '#libs/database';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { BACKOFF_BASE_SECONDS, BACKOFF_CAP_SECONDS, BILLING_OPTIONS, HOUR_GRACE_MS, LOOKBACK_DAYS, MAX_SEND_ATTEMPTS, type BillingOptions } from '../billing.options.js';
import { StripeCustomerService } from '../stripe/stripe-customer.service.js';
import { StripeGateway } from '../stripe/stripe.gateway.js';

const HOUR_MS = 3600 * 1000;
/** Orgs sent to Stripe at once in one round (each org's hours go in order). */
const ORG_CONCURRENCY = 4;

export interface SendReport {
  /** Rows claimed this round. */
  claimed: number;
  delivered: number;
  /** Of the delivered: Stripe already held the identifier (an earlier send had landed). */
  duplicates: number;
  /** Attempts that failed (retried later, or marked failed after the last one). */
  errors: number;
}

interface ClaimedRow {
  org_id: string;
  hour: Date;
  identifier: string;
  event_name: string;
  value: string;
  attempts: number;
}

/**
 * The Stripe meter outbox: spend is aggregated per org and closed UTC hour
 * into stripe_meter_events, then sent after commit. The identifier
 * (meter:org:hour) is the same on every send, so Stripe bills an hour at most
 * once however often it is resent; a row is inserted once (primary key org +
 * hour), so an hour is billed at least once while attempts remain.
 */
@Injectable()
export class MeterOutboxService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly gateway: StripeGateway,
    private readonly customers: StripeCustomerService,
    @Inject(BILLING_OPTIONS) private readonly options: BillingOptions,
  ) {}

  /** The meter event name (STRIPE_METER_EVENT_NAME); rows keep the name they were made with. */
  private get eventName(): string {
    return this.options.stripe?.meterEventName ?? 'fanout_spend';
  }

  /**
   * Inserts one pending row per org and closed hour with spend and no row
   * yet; returns how many. An hour is closed once its end plus the grace has
   * passed: ledger rows are stamped with the time they were recorded, so
   * nothing lands in it afterwards and its sum never changes.
   *
   * Each org is scanned from the hour after its newest row (every earlier
   * hour was closed whole by an earlier pass), through the org/recorded_at
   * index, and never further back than Stripe accepts timestamps.
   */
  async closeHours(now: Date): Promise<number> {
    const cutoff = new Date(Math.floor((now.getTime() - HOUR_GRACE_MS) / HOUR_MS) * HOUR_MS);
    const oldest = new Date(cutoff.getTime() - LOOKBACK_DAYS * 24 * HOUR_MS);
    const rows = await queryReturning<{ org_id: string }>(
      this.dataSource,
      `INSERT INTO stripe_meter_events (org_id, hour, identifier, event_name, value, status, attempts, next_attempt_at)
       SELECT o.id, s.hour,
              $1::text || ':' || o.id::text || ':' || to_char(s.hour AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
              $1::text, s.value, 'pending', 0, $4::timestamptz
         FROM organizations o
         CROSS JOIN LATERAL (
           SELECT date_trunc('hour', l.recorded_at, 'UTC') AS hour, sum(l.cost_micros)::bigint AS value
             FROM usage_ledger l
            WHERE l.org_id = o.id
              AND l.recorded_at < $2::timestamptz
              AND l.recorded_at >= GREATEST($3::timestamptz, (SELECT max(m.hour) + interval '1 hour' FROM stripe_meter_events m WHERE m.org_id = o.id))
            GROUP BY 1
           HAVING sum(l.cost_micros) > 0
         ) s
       ON CONFLICT DO NOTHING
       RETURNING org_id`,
      [this.eventName, cutoff, oldest, now],
    );
    return rows.length;
  }

  /**
   * Sends the rows that are due. Each row's attempt is counted, and its next
   * attempt scheduled, before Stripe is called: a crash mid-send leaves a row
   * that is simply sent again later, and Stripe's duplicate answer to its
   * identifier marks it delivered. A failed attempt keeps that schedule
   * (exponential backoff); after the last one the row is marked failed.
   */
  async sendDue(now: Date, limit = 200): Promise<SendReport> {
    const claimed = await queryReturning<ClaimedRow>(
      this.dataSource,
      `UPDATE stripe_meter_events m
          SET attempts = m.attempts + 1,
              next_attempt_at = $1::timestamptz + make_interval(secs => LEAST($2 * power(2, m.attempts), $3))
         FROM (SELECT org_id, hour FROM stripe_meter_events
                WHERE status = 'pending' AND next_attempt_at <= $1
                ORDER BY next_attempt_at, hour
                LIMIT $4
                FOR UPDATE SKIP LOCKED) due
        -- Rechecked after a lock wait: a row another round just claimed is no longer due.
        WHERE m.org_id = due.org_id AND m.hour = due.hour AND m.status = 'pending' AND m.next_attempt_at <= $1
        RETURNING m.org_id, m.hour, m.identifier, m.event_name, m.value, m.attempts`,
      [now, BACKOFF_BASE_SECONDS, BACKOFF_CAP_SECONDS, limit],
    );
    const report: SendReport = { claimed: claimed.length, delivered: 0, duplicates: 0, errors: 0 };
    const byOrg = new Map<string, ClaimedRow[]>();
    for (const row of claimed) byOrg.set(row.org_id, [...(byOrg.get(row.org_id) ?? []), row]);
    const queue = [...byOrg.values()].map((rows) => rows.sort((a, b) => a.hour.getTime() - b.hour.getTime()));
    const worker = async () => {
      for (let rows = queue.shift(); rows; rows = queue.shift()) {
        for (const row of rows) await this.send(row, now, report);
      }
    };
    await Promise.all(Array.from({ length: ORG_CONCURRENCY }, worker));
    return report;
  }

  private async send(row: ClaimedRow, now: Date, report: SendReport): Promise<void> {
    const key = [row.org_id, row.hour];
    try {
      const customerId = await this.customers.ensure(row.org_id);
      const answer = await this.gateway.createMeterEvent({
        eventName: row.event_name,
        customerId,
        value: Number(row.value),
        identifier: row.identifier,
        timestamp: Math.floor(row.hour.getTime() / 1000),
      });
      await this.dataSource.query(
        `UPDATE stripe_meter_events SET status = 'delivered', delivered_at = $3, last_error = NULL WHERE org_id = $1 AND hour = $2 AND status = 'pending'`,
        [...key, now],
      );
      report.delivered++;
      if (answer === 'duplicate') {
        report.duplicates++;
        this.options.logger.info({ orgId: row.org_id, identifier: row.identifier }, 'stripe meter event was already delivered (duplicate identifier)');
      }
    } catch (err) {
      report.errors++;
      const message = describeError(err);
      const [updated] = await queryReturning<{ status: string }>(
        this.dataSource,
        `UPDATE stripe_meter_events
            SET last_error = $3, status = CASE WHEN attempts >= $4 THEN 'failed' ELSE 'pending' END
          WHERE org_id = $1 AND hour = $2 AND status = 'pending'
          RETURNING status`,
        [...key, message, MAX_SEND_ATTEMPTS],
      );
      const level = updated?.status === 'failed' ? 'error' : 'warn';
      this.options.logger[level]({ orgId: row.org_id, identifier: row.identifier, attempt: row.attempts, error: message }, `stripe meter event not sent${level === 'error' ? ': giving up' : ''}`);
    }
  }
}

function describeError(err: unknown): string {
  const e = err as { statusCode?: number; type?: string; message?: string };
  const status = e.statusCode ? `${e.statusCode} ` : '';
  return `${status}${e.type ?? 'Error'}: ${e.message ?? String(err)}`.slice(0, 500);
}
