import { Clock } from '#libs/common';
import { LOGGER } from '#libs/observability';
import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';

/** What the org's webhook receives (POST, JSON), with the alert id also in the `x-fanout-alert-id` header. */
export interface AlertWebhookPayload {
  id: string;
  scope: 'campaign' | 'org';
  campaignId: string | null;
  /** YYYY-MM for an org's monthly cap; null for a campaign's. */
  period: string | null;
  threshold: number;
  spentUsd: number;
  capUsd: number;
  createdAt: string;
}

/** The one side effect: an HTTP POST. Answers the status, or throws on a network error or timeout. */
export abstract class AlertWebhookSender {
  abstract post(url: string, body: string, headers: Record<string, string>, timeoutMs: number): Promise<{ status: number }>;
}

export class FetchAlertWebhookSender extends AlertWebhookSender {
  async post(url: string, body: string, headers: Record<string, string>, timeoutMs: number): Promise<{ status: number }> {
    // No redirects: the org registered this URL, not wherever it points next.
    const res = await fetch(url, { method: 'POST', body, headers, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    await res.body?.cancel().catch(() => {});
    return { status: res.status };
  }
}

export interface AlertDeliveryOptions {
  /** Run the interval worker (the API does; tests call runOnce instead). */
  enabled: boolean;
  /** Pause between rounds when nothing is due. */
  intervalMs: number;
  /** Alerts claimed per round. */
  batchSize: number;
  /** After this many failed attempts an alert is `failed` for good. */
  maxAttempts: number;
  /** Wait after the first failure; doubled after each further one, up to maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
  timeoutMs: number;
  /**
   * How long a claim keeps other workers off an alert. Longer than the
   * timeout, so a claimed alert is only ever claimed again when its worker
   * died mid-call.
   */
  leaseMs: number;
}

export const ALERT_DELIVERY_OPTIONS = Symbol('ALERT_DELIVERY_OPTIONS');

export const DEFAULT_ALERT_DELIVERY: AlertDeliveryOptions = {
  enabled: false,
  intervalMs: 2_000,
  batchSize: 20,
  maxAttempts: 8,
  baseDelayMs: 10_000,
  maxDelayMs: 3_600_000,
  timeoutMs: 5_000,
  leaseMs: 60_000,
};

export interface AlertDeliveryRound {
  claimed: number;
  delivered: number;
  /** Failed attempts that will be retried. */
  retrying: number;
  /** Alerts that reached maxAttempts (or lost their URL) this round. */
  failed: number;
}

interface ClaimedAlert {
  id: string;
  org_id: string;
  scope: 'campaign' | 'org';
  campaign_id: string | null;
  period: string | null;
  threshold: number;
  spent_micros: string;
  cap_micros: string;
  created_at: Date;
  attempts: number;
  url: string | null;
}

const MAX_ERROR_LENGTH = 500;

/**
 * Delivers budget alerts to their org's webhook after the ledger's
 * transaction committed them (the alert row is the outbox). A round claims
 * due alerts with FOR UPDATE SKIP LOCKED and, in that short transaction,
 * counts the attempt and pushes next_attempt_at past a lease, so a second
 * worker neither blocks nor sends the same alert; the POST happens after
 * commit. A failure is retried with exponential backoff; after maxAttempts
 * the alert is `failed` with the last error.
 */
@Injectable()
export class AlertDeliveryService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private stopped = false;
  private timer: NodeJS.Timeout | null = null;
  private wake: (() => void) | null = null;
  private loopDone: Promise<void> | null = null;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly sender: AlertWebhookSender,
    @Inject(ALERT_DELIVERY_OPTIONS) private readonly options: AlertDeliveryOptions,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    if (this.options.enabled) this.loopDone = this.loop();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.wake?.();
    await this.loopDone;
  }

  /** One round: claims up to batchSize due alerts and attempts each once. */
  async runOnce(): Promise<AlertDeliveryRound> {
    const claimed = await this.claim();
    const round: AlertDeliveryRound = { claimed: claimed.length, delivered: 0, retrying: 0, failed: 0 };
    const outcomes = await Promise.all(claimed.map((alert) => this.deliver(alert)));
    for (const outcome of outcomes) round[outcome]++;
    return round;
  }

  /** Delay before the next attempt after `attempts` failed ones: base, 2 x base, 4 x base, ... capped. */
  backoffMs(attempts: number): number {
    return Math.min(this.options.maxDelayMs, this.options.baseDelayMs * 2 ** Math.max(0, attempts - 1));
  }

  private async claim(): Promise<ClaimedAlert[]> {
    const now = this.clock.now();
    return this.dataSource.transaction(async (tx) => {
      const due: ClaimedAlert[] = await tx.query(
        `SELECT a.id, a.org_id, a.scope, a.campaign_id, a.period, a.threshold, a.spent_micros::text AS spent_micros, a.cap_micros::text AS cap_micros,
                a.created_at, a.webhook_attempts + 1 AS attempts, o.alert_webhook_url AS url
           FROM budget_alerts a JOIN organizations o ON o.id = a.org_id
          WHERE a.webhook_status = 'pending' AND a.next_attempt_at <= $1
          ORDER BY a.next_attempt_at, a.id
          LIMIT $2
          FOR UPDATE OF a SKIP LOCKED`,
        [now, this.options.batchSize],
      );
      if (due.length === 0) return [];
      await tx.query(`UPDATE budget_alerts SET webhook_attempts = webhook_attempts + 1, next_attempt_at = $2 WHERE id = ANY($1::uuid[])`, [
        due.map((a) => a.id),
        new Date(now.getTime() + this.options.leaseMs),
      ]);
      return due;
    });
  }

  private async deliver(alert: ClaimedAlert): Promise<'delivered' | 'retrying' | 'failed'> {
    const log = { alertId: alert.id, orgId: alert.org_id, attempt: alert.attempts };
    if (!alert.url) {
      // The org removed its URL after the alert was raised: nothing to call, ever.
      await this.settle(alert, 'none', 'the organization has no alert webhook URL any more', null);
      this.logger.info(log, 'alert webhook skipped: no URL');
      return 'failed';
    }
    const payload: AlertWebhookPayload = {
      id: alert.id,
      scope: alert.scope,
      campaignId: alert.campaign_id,
      period: alert.period,
      threshold: alert.threshold,
      spentUsd: Number(alert.spent_micros) / 1e6,
      capUsd: Number(alert.cap_micros) / 1e6,
      createdAt: alert.created_at.toISOString(),
    };
    let error: string;
    try {
      const { status } = await this.sender.post(
        alert.url,
        JSON.stringify(payload),
        { 'content-type': 'application/json', 'user-agent': 'fanout-alerts/1', 'x-fanout-alert-id': alert.id },
        this.options.timeoutMs,
      );
      if (status >= 200 && status < 300) {
        await this.settle(alert, 'delivered', null, null);
        this.logger.info(log, 'alert webhook delivered');
        return 'delivered';
      }
      error = `HTTP ${status}`;
    } catch (err) {
      error = describeError(err, this.options.timeoutMs).replaceAll(alert.url, '<webhook URL>');
    }
    if (alert.attempts >= this.options.maxAttempts) {
      await this.settle(alert, 'failed', error, null);
      this.logger.warn({ ...log, error }, 'alert webhook failed for good');
      return 'failed';
    }
    const next = new Date(this.clock.now().getTime() + this.backoffMs(alert.attempts));
    await this.settle(alert, 'pending', error, next);
    this.logger.warn({ ...log, error, nextAttemptAt: next }, 'alert webhook attempt failed; will retry');
    return 'retrying';
  }

  /** Records an attempt's outcome, only if the claim is still this worker's (same attempt count, still pending). */
  private async settle(alert: ClaimedAlert, status: 'none' | 'pending' | 'delivered' | 'failed', error: string | null, next: Date | null): Promise<void> {
    await this.dataSource.query(
      `UPDATE budget_alerts SET webhook_status = $3, last_error = $4, next_attempt_at = $5
        WHERE id = $1 AND webhook_attempts = $2 AND webhook_status = 'pending'`,
      [alert.id, alert.attempts, status, error?.slice(0, MAX_ERROR_LENGTH) ?? null, next],
    );
  }

  private async loop(): Promise<void> {
    this.logger.info({ intervalMs: this.options.intervalMs }, 'alert webhook delivery started');
    while (!this.stopped) {
      let round: AlertDeliveryRound | null = null;
      try {
        round = await this.runOnce();
      } catch (err) {
        this.logger.error({ err }, 'alert webhook round failed; retrying');
      }
      // A full batch means more may be due: go again at once.
      if (this.stopped || (round && round.claimed === this.options.batchSize)) continue;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        this.timer = setTimeout(resolve, this.options.intervalMs);
        this.timer.unref();
      });
      this.wake = null;
      this.timer = null;
    }
  }
}

/** A short reason for last_error; never the URL (it may carry a token). */
function describeError(err: unknown, timeoutMs: number): string {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return `no answer within ${timeoutMs} ms`;
  const cause = e?.cause?.code ?? e?.cause?.message;
  return cause ? `${e?.message ?? 'request failed'}: ${cause}` : (e?.message ?? String(err));
}
