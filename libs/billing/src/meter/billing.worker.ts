import { Clock } from '#libs/common';
import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { BILLING_OPTIONS, WORKER_INTERVAL_MS, type BillingOptions } from '../billing.options.js';
import { MeterOutboxService, type SendReport } from './meter-outbox.service.js';

export interface BillingRound extends SendReport {
  /** Org-hours closed into the outbox. */
  closed: number;
}

/**
 * Closes hours and sends due meter events every minute, in the API process,
 * when Stripe is on. Stateless: every step is a conditional row update, so
 * several processes may run it at once and a restart anywhere is safe.
 */
@Injectable()
export class BillingWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private timer: NodeJS.Timeout | null = null;
  private round: Promise<unknown> | null = null;
  private stopped = true;

  constructor(
    private readonly outbox: MeterOutboxService,
    private readonly clock: Clock,
    @Inject(BILLING_OPTIONS) private readonly options: BillingOptions,
  ) {}

  onApplicationBootstrap(): void {
    if (this.options.stripe) this.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.stop();
  }

  /** Whether the loop is scheduled. */
  get running(): boolean {
    return !this.stopped;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(0);
  }

  /** Stops the loop and waits for a round in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.round;
  }

  /** One round at `now`: close hours, then send what is due. */
  async runOnce(now: Date): Promise<BillingRound> {
    const closed = await this.outbox.closeHours(now);
    const sent = await this.outbox.sendDue(now);
    return { closed, ...sent };
  }

  private schedule(delayMs: number): void {
    this.timer = setTimeout(() => {
      this.timer = null;
      this.round = this.runOnce(this.clock.now())
        .then((r) => {
          if (r.closed || r.claimed) this.options.logger.info({ ...r }, 'stripe billing round');
        })
        .catch((err) => this.options.logger.warn({ err }, 'stripe billing round failed; retrying next round'))
        .finally(() => {
          this.round = null;
          if (!this.stopped) this.schedule(WORKER_INTERVAL_MS);
        });
    }, delayMs);
    this.timer.unref();
  }
}
