import { queryReturning } from '#libs/database';
import { releaseReservations } from '#libs/metering';
import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import { Executor, type ExitCause, type StartRequest } from '../executors/executor.js';
import { GradeService, completeCampaignIfDone } from '../ingest/grade.service.js';
import { HEARTBEAT_SECONDS } from '../ingest/runner-session.service.js';
import { claimExecutions } from './dispatcher.js';

export interface SchedulerOptions {
  enabled: boolean;
  /** Attempts per execution before it is marked infra_failed. */
  maxAttempts: number;
  /** Milliseconds between dispatch rounds when idle. */
  tickMs: number;
  /** Base of the exponential retry backoff, in seconds. */
  backoffSeconds: number;
  logger: Logger;
}

export const SCHEDULER_OPTIONS = Symbol('SCHEDULER_OPTIONS');

/** A dispatched attempt that never heartbeats within this is presumed not started. */
const DISPATCH_TIMEOUT_S = 30;
/** A running attempt silent for this long, with no live runner, has failed. */
const LOST_HEARTBEAT_S = HEARTBEAT_SECONDS * 4;

/**
 * The dispatch loop: claim (caps, fairness), start through the executor,
 * mark running; and the reconcile loop: cancellations, lost runners,
 * stalled dispatches. No state of its own: every change is a conditional
 * update on the row, so a restart at any point, or a second scheduler, is safe.
 */
@Injectable()
export class SchedulerService implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown {
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private stopped = false;
  private wake: (() => void) | null = null;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly executor: Executor,
    @Inject(SCHEDULER_OPTIONS) private readonly options: SchedulerOptions,
  ) {
    executor.onExit = (id, attempt, code, cause) => void this.runnerExited(id, attempt, code, cause);
  }

  onApplicationBootstrap(): void {
    if (this.options.enabled) void this.loop();
  }

  /**
   * Stops dispatching; with a local executor also stops this machine's
   * runners (they are detached, so a terminal's Ctrl-C does not reach them)
   * and requeues their executions, while the database is still open.
   */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    while (this.running) await new Promise((r) => setTimeout(r, 20));
    if (!this.options.enabled || !this.executor.stopOnShutdown) return;
    const live: { id: string; attempt: number }[] = await this.dataSource.query(`SELECT id, attempt FROM executions WHERE status IN ('dispatching', 'running')`);
    await Promise.all(
      live.map(async (e) => {
        if (!(await this.executor.isRunning(e.id, e.attempt))) return;
        await this.executor.stop(e.id, e.attempt);
        await this.fail(e.id, e.attempt, 'interrupted: the platform shut down');
      }),
    );
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.wake?.();
  }

  /** One dispatch round; returns how many executions started. Exposed for tests and benchmarks. */
  async dispatchOnce(): Promise<number> {
    const [{ n }] = await this.dataSource.query(`SELECT count(*)::int AS n FROM executions WHERE status IN ('dispatching', 'running')`);
    const claimed = await claimExecutions(this.dataSource, Math.min(200, this.executor.capacity - n));
    await Promise.all(claimed.map((request) => this.start(request)));
    return claimed.length;
  }

  /** One reconcile round. */
  async reconcileOnce(): Promise<void> {
    // Cancelled campaigns: stop what still runs.
    const cancelled = await queryReturning<{ id: string; attempt: number; campaign_id: string }>(
      this.dataSource,
      `UPDATE executions e SET status = 'cancelled', finished_at = now(), updated_at = now()
         FROM campaigns c WHERE c.id = e.campaign_id AND c.status = 'cancelled' AND e.status IN ('dispatching', 'running')
       RETURNING e.id, e.attempt, e.campaign_id`,
    );
    // Campaigns paused by a cap: stop what still runs under it. Its events and spend so far are kept, and
    // its runner may still report what it spent while stopping (the token stays valid for this attempt).
    const overBudget = await queryReturning<{ id: string; attempt: number; campaign_id: string }>(
      this.dataSource,
      `UPDATE executions e SET status = 'cancelled_budget', finished_at = now(), updated_at = now(),
              last_error = CASE c.pause_reason WHEN 'org_budget' THEN 'cancelled: the organization reached its monthly budget cap'
                                               ELSE 'cancelled: the campaign reached its budget cap' END
         FROM campaigns c WHERE c.id = e.campaign_id AND c.status = 'paused' AND c.pause_reason IN ('budget', 'org_budget')
          AND e.status IN ('dispatching', 'running')
       RETURNING e.id, e.attempt, e.campaign_id`,
    );
    const stopped = [...cancelled, ...overBudget];
    await releaseReservations(this.dataSource, stopped.map((e) => e.id));
    await Promise.all(stopped.map((e) => this.executor.stop(e.id, e.attempt)));
    if (overBudget.length > 0) this.options.logger.warn({ executions: overBudget.length }, 'stopped executions over a budget cap');
    // Dispatched but never heard from: running after all, or never started.
    const stalled: { id: string; attempt: number; heartbeat: boolean }[] = await this.dataSource.query(
      `SELECT id, attempt, heartbeat_at IS NOT NULL AS heartbeat FROM executions
        WHERE (status = 'dispatching' AND dispatched_at < now() - make_interval(secs => $1))
           OR (status = 'running' AND COALESCE(heartbeat_at, dispatched_at) < now() - make_interval(secs => $2))`,
      [DISPATCH_TIMEOUT_S, LOST_HEARTBEAT_S],
    );
    for (const e of stalled) {
      if (await this.executor.isRunning(e.id, e.attempt)) continue;
      await this.fail(e.id, e.attempt, e.heartbeat ? 'lost heartbeat: the runner stopped reporting' : 'the runner never started');
    }
  }

  private async start(request: StartRequest): Promise<void> {
    try {
      await this.executor.start(request);
      await this.dataSource.query(
        `UPDATE executions SET status = 'running', updated_at = now() WHERE id = $1 AND attempt = $2 AND status = 'dispatching'`,
        [request.executionId, request.attempt],
      );
    } catch (err) {
      this.options.logger.warn({ err, executionId: request.executionId }, 'executor could not start the runner');
      await this.fail(request.executionId, request.attempt, `executor error: ${(err as Error).message}`);
    }
  }

  private async runnerExited(executionId: string, attempt: number, code: number | null, cause?: ExitCause): Promise<void> {
    // During shutdown the database may already be closed; the reconciler of the next start settles it.
    if (!this.dataSource.isInitialized) return;
    try {
      if (cause?.kind === 'infrastructure') return await this.fail(executionId, attempt, cause.reason);
      if (cause?.kind === 'agent') return await this.agentFailed(executionId, attempt, cause);
      // A runner that exits 0 has posted its grade; anything else left running is an infrastructure failure.
      await this.fail(executionId, attempt, code === 0 ? 'the runner exited without posting a grade' : `the runner exited with ${code ?? 'a signal'}`);
    } catch (err) {
      this.options.logger.warn({ err, executionId }, 'could not record a runner exit; the reconciler will');
    }
  }

  /**
   * The agent took its runner down before a grade (out of memory, the
   * cluster's deadline): a result like any agent failure, graded 0 of 0 with
   * the events recorded so far, never retried.
   */
  private async agentFailed(executionId: string, attempt: number, cause: Extract<ExitCause, { kind: 'agent' }>): Promise<void> {
    const [row]: { org_id: string; campaign_id: string; status: string; attempt: number; started: Date | null }[] = await this.dataSource.query(
      'SELECT org_id, campaign_id, status, attempt, COALESCE(started_at, dispatched_at) AS started FROM executions WHERE id = $1',
      [executionId],
    );
    if (!row || row.attempt !== attempt || (row.status !== 'dispatching' && row.status !== 'running')) return;
    const wallSeconds = row.started ? Math.max(0, (Date.now() - new Date(row.started).getTime()) / 1000) : 0;
    await new GradeService(this.dataSource).record(
      { id: executionId, orgId: row.org_id, campaignId: row.campaign_id, attempt, status: row.status },
      { attempt, testsPassed: 0, testsTotal: 0, resolved: false, agentEnd: cause.agentEnd, agentExitCode: cause.agentExitCode, graderExitCode: null, wallSeconds, graderOutputTail: cause.reason },
      { onlyLive: true },
    );
    this.options.logger.warn({ executionId, attempt, reason: cause.reason }, 'execution attempt ended as an agent failure (no grade)');
    this.wake?.();
  }

  /**
   * An infrastructure failure of this attempt: retried with exponential
   * backoff while attempts remain, else infra_failed. Conditional on the
   * attempt still being live, so a late report never undoes a result.
   */
  async fail(executionId: string, attempt: number, reason: string): Promise<void> {
    const rows = await queryReturning<{ campaign_id: string; status: string }>(
      this.dataSource,
      `UPDATE executions SET
          status = CASE WHEN attempt < $3 THEN 'queued' ELSE 'infra_failed' END,
          outcome = CASE WHEN attempt < $3 THEN NULL ELSE 'infra_failed' END,
          next_attempt_at = now() + make_interval(secs => $4 * power(2, attempt - 1)),
          finished_at = CASE WHEN attempt < $3 THEN NULL ELSE now() END,
          last_error = $5, runner_token_hash = NULL, updated_at = now()
        WHERE id = $1 AND attempt = $2 AND status IN ('dispatching', 'running')
        RETURNING campaign_id, status`,
      [executionId, attempt, this.options.maxAttempts, this.options.backoffSeconds, reason],
    );
    const row = rows[0];
    if (!row) return;
    await releaseReservations(this.dataSource, [executionId]);
    this.options.logger.warn({ executionId, attempt, reason, next: row.status }, 'execution attempt failed (infrastructure)');
    if (row.status === 'infra_failed') await this.dataSource.transaction((tx) => completeCampaignIfDone(tx, row.campaign_id));
    this.wake?.();
  }

  private async loop(): Promise<void> {
    this.running = true;
    this.options.logger.info({ capacity: this.executor.capacity }, 'scheduler started');
    let lastReconcile = 0;
    while (!this.stopped) {
      try {
        const started = await this.dispatchOnce();
        if (Date.now() - lastReconcile > 2_000) {
          await this.reconcileOnce();
          lastReconcile = Date.now();
        }
        if (started > 0) continue;
      } catch (err) {
        this.options.logger.error({ err }, 'scheduler round failed; retrying');
      }
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        this.timer = setTimeout(resolve, this.options.tickMs);
      });
      if (this.timer) clearTimeout(this.timer);
    }
    this.running = false;
  }
}
