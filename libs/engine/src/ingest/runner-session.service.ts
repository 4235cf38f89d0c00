import { DomainException, ErrorCode } from '#libs/common';
import type { ExecutionSpec, Heartbeat } from '#libs/contracts';
import { AgentConfigVersionEntity, BenchmarkVersionEntity, SecretService } from '#libs/catalog';
import { ExecutionEntity } from '#libs/campaigns';
import { queryReturning } from '#libs/database';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { isAbsolute, resolve } from 'node:path';
import type { DataSource } from 'typeorm';
import type { RunnerExecution } from '../runner-token.js';

export const HEARTBEAT_SECONDS = 5;

/** What the runner fetches (its spec) and tells (heartbeats). */
@Injectable()
export class RunnerSessionService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly secrets: SecretService,
  ) {}

  async spec(execution: RunnerExecution): Promise<ExecutionSpec> {
    const e = await this.dataSource.getRepository(ExecutionEntity).findOneByOrFail({ id: execution.id });
    const agent = await this.dataSource.getRepository(AgentConfigVersionEntity).findOneByOrFail({ id: e.agentConfigVersionId });
    const bench = await this.dataSource.getRepository(BenchmarkVersionEntity).findOneByOrFail({ id: e.benchmarkVersionId });
    const [campaign] = await this.dataSource.query('SELECT seed, plan FROM campaigns WHERE id = $1', [e.campaignId]);
    const task = bench.manifest.suites.find((s) => s.id === e.suiteKey)?.tasks.find((t) => t.id === e.taskKey);
    if (!task) throw new DomainException(ErrorCode.INTERNAL, `task ${e.taskKey} is missing from ${bench.key} ${bench.version}`);
    const mode = agent.manifest.modes[e.mode];
    if (!mode) throw new DomainException(ErrorCode.INTERNAL, `mode ${e.mode} is missing from ${agent.name} v${agent.version}`);
    const base = bench.sourceDir ?? '/';
    const at = (path: string) => (isAbsolute(path) ? path : resolve(base, path));
    const secretEnv = await this.secrets.reveal(e.orgId, agent.manifest.secrets ?? []);
    const budgetMinutes = (campaign.plan?.timeBudgetMinutes as number | null) ?? task.timeBudgetMinutes;
    return {
      executionId: e.id,
      attempt: e.attempt,
      campaignId: e.campaignId,
      mode: e.mode,
      repetition: e.repetition,
      // One seed per (campaign, task, repetition): a re-run repeats it, another repetition differs; both modes share it.
      seed: seedOf(Number(campaign.seed), e.taskKey, e.repetition),
      agent: {
        name: agent.name,
        version: agent.version,
        model: agent.model,
        command: agent.manifest.command,
        env: { ...(agent.manifest.env ?? {}), ...(mode.env ?? {}), ...secretEnv },
        args: mode.args ?? [],
      },
      task: {
        benchmark: bench.key,
        benchmarkVersion: bench.version,
        suite: e.suiteKey,
        id: e.taskKey,
        difficulty: e.difficulty,
        instruction: task.instruction,
        workspace: at(task.workspace),
        tests: task.tests ? at(task.tests) : null,
        grader: { command: task.grader.command, format: task.grader.format, reportPath: task.grader.reportPath ?? null },
        timeBudgetSeconds: budgetMinutes * 60,
      },
      heartbeatSeconds: HEARTBEAT_SECONDS,
    };
  }

  /** Marks the attempt alive (dispatching becomes running); answers cancel when the execution was cancelled. */
  async heartbeat(execution: RunnerExecution, beat: Heartbeat): Promise<{ cancel: boolean }> {
    if (beat.attempt !== execution.attempt) return { cancel: true };
    const rows = await queryReturning<{ status: string; campaign_status: string }>(
      this.dataSource,
      `UPDATE executions e SET heartbeat_at = now(), status = CASE WHEN e.status = 'dispatching' THEN 'running' ELSE e.status END,
              started_at = COALESCE(e.started_at, now())
         FROM campaigns c
        WHERE e.id = $1 AND e.attempt = $2 AND c.id = e.campaign_id
        RETURNING e.status, c.status AS campaign_status`,
      [execution.id, beat.attempt],
    );
    const row = rows[0];
    // A cancelled campaign, or one a budget cap stopped, stops its runners at their next heartbeat.
    return { cancel: !row || row.status === 'cancelled' || row.status === 'cancelled_budget' || row.campaign_status === 'cancelled' };
  }
}

function seedOf(campaignSeed: number, task: string, repetition: number): number {
  let h = 2166136261 ^ campaignSeed;
  for (const ch of `${task}#${repetition}`) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  return h >>> 0;
}
