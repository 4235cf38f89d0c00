import { DomainException, ErrorCode } from '#libs/common';
import type { Grade } from '#libs/contracts';
import { releaseReservations } from '#libs/metering';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import type { RunnerExecution } from '../runner-token.js';
import { summarise, type EventRow } from './execution-summary.js';

/**
 * Records the grader's verdict and the execution's summary in one
 * transaction, conditional on the attempt the token belongs to, then
 * completes the campaign when nothing of it is left to run.
 */
@Injectable()
export class GradeService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * `onlyLive`: record only while the attempt is dispatching or running (the
   * scheduler's own verdicts, e.g. an agent the cluster killed for its memory,
   * must never overwrite a cancellation or a retry decided meanwhile).
   */
  async record(execution: RunnerExecution, grade: Grade, options: { onlyLive?: boolean } = {}): Promise<{ status: string }> {
    if (grade.attempt !== execution.attempt) {
      throw new DomainException(ErrorCode.CONFLICT, `attempt: this execution is on attempt ${execution.attempt}, got ${grade.attempt}`, 'attempt');
    }
    return this.dataSource.transaction(async (tx) => {
      const [row] = await tx.query('SELECT status, attempt, org_id, started_at, dispatched_at FROM executions WHERE id = $1 FOR UPDATE', [execution.id]);
      if (row.attempt !== grade.attempt) throw new DomainException(ErrorCode.CONFLICT, `attempt: superseded by attempt ${row.attempt}`, 'attempt');
      // A repeat (the runner retried after a lost answer) or a cancelled execution: keep what is there.
      if (row.status === 'completed' || row.status === 'cancelled' || row.status === 'infra_failed') return { status: row.status };
      if (options.onlyLive && row.status !== 'dispatching' && row.status !== 'running') return { status: row.status };
      const now = new Date();
      const events: EventRow[] = await tx.query('SELECT type, agent_id, time, data FROM trajectory_events WHERE execution_id = $1 AND attempt = $2 ORDER BY seq', [execution.id, grade.attempt]);
      // Cost is the ledger's: each call priced once, at ingest, with the price in force at its time.
      const summary = { ...summarise(events), ...(await ledgerCost(tx, execution.id)) };
      const firstEvent = events.length ? events.reduce((min, e) => (e.time < min ? e.time : min), events[0]!.time) : null;
      await tx.query(
        `UPDATE executions SET status = 'completed', outcome = 'completed', tests_passed = $2, tests_total = $3, resolved = $4,
            wall_seconds = $5, shell_calls = $6, input_tokens = $7, cache_read_tokens = $8, cache_write_tokens = $9,
            output_tokens = $10, reasoning_tokens = $11, cost_micros = $12, agents = $13, summary = $14, agent_end = $15,
            agent_exit_code = $16, grader_exit_code = $17, finished_at = $18, started_at = COALESCE(started_at, $19), updated_at = $18
          WHERE id = $1`,
        [
          execution.id,
          grade.testsPassed,
          grade.testsTotal,
          grade.resolved,
          grade.wallSeconds,
          summary.shellCalls,
          summary.usage.uncachedInput + summary.usage.cacheRead + summary.usage.cacheWrite,
          summary.usage.cacheRead,
          summary.usage.cacheWrite,
          summary.usage.output,
          summary.usage.reasoning,
          summary.costMicros,
          JSON.stringify(summary.agents),
          JSON.stringify({ ...summary, agents: undefined, graderOutputTail: grade.graderOutputTail ?? null }),
          grade.agentEnd,
          grade.agentExitCode,
          grade.graderExitCode,
          now,
          firstEvent ?? row.dispatched_at ?? now,
        ],
      );
      await releaseReservations(tx, [execution.id]);
      await completeCampaignIfDone(tx, execution.campaignId);
      return { status: 'completed' };
    });
  }
}

/** The execution's spend from the ledger, and the models it could not price. */
async function ledgerCost(tx: EntityManager, executionId: string): Promise<{ costMicros: number; unpricedModels: string[] }> {
  const [row] = await tx.query(
    `SELECT COALESCE(sum(cost_micros), 0)::bigint AS cost, COALESCE(array_agg(DISTINCT model ORDER BY model) FILTER (WHERE unpriced), '{}') AS unpriced
       FROM usage_ledger WHERE execution_id = $1`,
    [executionId],
  );
  return { costMicros: Number(row.cost), unpricedModels: row.unpriced };
}

/** A running campaign whose executions have all ended becomes completed. */
export async function completeCampaignIfDone(tx: EntityManager, campaignId: string): Promise<void> {
  await tx.query(
    `UPDATE campaigns SET status = 'completed', updated_at = now()
      WHERE id = $1 AND status = 'running'
        AND NOT EXISTS (SELECT 1 FROM executions WHERE campaign_id = $1 AND status IN ('queued', 'dispatching', 'running'))`,
    [campaignId],
  );
}
