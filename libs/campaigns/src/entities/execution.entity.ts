import { bigintNumber } from '#libs/database';
import { Check, Column, JoinColumn, ManyToOne, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { CampaignEntity } from './campaign.entity.js';

export type ExecutionStatus = 'queued' | 'dispatching' | 'running' | 'completed' | 'infra_failed' | 'cancelled' | 'cancelled_budget';
export const EXECUTION_STATUSES: ExecutionStatus[] = ['queued', 'dispatching', 'running', 'completed', 'infra_failed', 'cancelled', 'cancelled_budget'];

export interface AgentSpanRow {
  id: string;
  parentId: string | null;
  start: string;
  end: string;
}

/**
 * One unit of a campaign: agent config version x mode x task x repetition.
 * The result columns are the execution record of metrics.md (null until it
 * ends); metrics read these, never raw trajectory events.
 */
@Entity('executions')
@Index('executions_unit_key', ['campaignId', 'agentConfigVersionId', 'mode', 'taskId', 'repetition'], { unique: true })
@Index('executions_campaign_status_idx', ['campaignId', 'status'])
@Index('executions_org_status_idx', ['orgId', 'status'])
@Index('executions_campaign_created_idx', ['campaignId', 'createdAt', 'id'])
@Index('executions_dispatch_idx', ['status', 'nextAttemptAt'])
@Check('executions_status_check', `"status" IN ('queued','dispatching','running','completed','infra_failed','cancelled','cancelled_budget')`)
export class ExecutionEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'org_id' })
  orgId: string;

  @Column('uuid', { name: 'campaign_id' })
  campaignId: string;

  @ManyToOne(() => CampaignEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'campaign_id', foreignKeyConstraintName: 'executions_campaign_fk' })
  campaign?: CampaignEntity;

  @Column('uuid', { name: 'agent_config_version_id' })
  agentConfigVersionId: string;

  @Column('text', { name: 'agent_name' })
  agentName: string;

  @Column('text')
  model: string;

  @Column('text')
  mode: string;

  @Column('uuid', { name: 'benchmark_version_id' })
  benchmarkVersionId: string;

  @Column('text', { name: 'benchmark_key' })
  benchmarkKey: string;

  @Column('uuid', { name: 'task_id' })
  taskId: string;

  @Column('text', { name: 'suite_key' })
  suiteKey: string;

  @Column('text', { name: 'task_key' })
  taskKey: string;

  @Column('text')
  difficulty: 'easy' | 'medium' | 'hard';

  @Column('integer')
  repetition: number;

  @Column('text')
  status: ExecutionStatus;

  /** How it got its result: run by Fanout, or imported from a record. */
  @Column('text', { default: 'run' })
  source: 'run' | 'import';

  @Column('integer', { default: 0 })
  attempt: number;

  @Column('text', { nullable: true })
  outcome: 'completed' | 'infra_failed' | null;

  @Column('integer', { name: 'tests_passed', nullable: true })
  testsPassed: number | null;

  @Column('integer', { name: 'tests_total', nullable: true })
  testsTotal: number | null;

  @Column('boolean', { nullable: true })
  resolved: boolean | null;

  @Column('double precision', { name: 'wall_seconds', nullable: true })
  wallSeconds: number | null;

  @Column('integer', { name: 'shell_calls', nullable: true })
  shellCalls: number | null;

  @Column('bigint', { name: 'input_tokens', nullable: true, transformer: bigintNumber })
  inputTokens: number | null;

  @Column('bigint', { name: 'cache_read_tokens', nullable: true, transformer: bigintNumber })
  cacheReadTokens: number | null;

  @Column('bigint', { name: 'cache_write_tokens', nullable: true, transformer: bigintNumber })
  cacheWriteTokens: number | null;

  @Column('bigint', { name: 'output_tokens', nullable: true, transformer: bigintNumber })
  outputTokens: number | null;

  @Column('bigint', { name: 'reasoning_tokens', nullable: true, transformer: bigintNumber })
  reasoningTokens: number | null;

  @Column('bigint', { name: 'cost_micros', nullable: true, transformer: bigintNumber })
  costMicros: number | null;

  @Column('double precision', { name: 'reference_kloc', nullable: true })
  referenceKloc: number | null;

  /** Main agent and sub-agent spans (the delegation metrics' input). */
  @Column('jsonb', { nullable: true })
  agents: AgentSpanRow[] | null;

  /** The estimated cost reserved against the caps when this attempt was dispatched; released when it ends. */
  @Column('bigint', { name: 'reserved_micros', default: 0, transformer: bigintNumber })
  reservedMicros: number;

  /** Hash of the imported record: re-importing the same line is a no-op. */
  @Column('text', { name: 'record_hash', nullable: true })
  recordHash: string | null;

  /** SHA-256 of the current attempt's runner token (the token itself is never stored). */
  @Column('bytea', { name: 'runner_token_hash', nullable: true, select: false })
  runnerTokenHash: Buffer | null;

  @Column('timestamptz', { name: 'dispatched_at', nullable: true })
  dispatchedAt: Date | null;

  @Column('timestamptz', { name: 'heartbeat_at', nullable: true })
  heartbeatAt: Date | null;

  /** Not before this time (retry backoff). */
  @Column('timestamptz', { name: 'next_attempt_at', nullable: true })
  nextAttemptAt: Date | null;

  /** Why the last attempt failed (infrastructure), for people. */
  @Column('text', { name: 'last_error', nullable: true })
  lastError: string | null;

  @Column('text', { name: 'agent_end', nullable: true })
  agentEnd: 'exited' | 'timeout' | 'crashed' | 'cancelled' | null;

  @Column('integer', { name: 'agent_exit_code', nullable: true })
  agentExitCode: number | null;

  @Column('integer', { name: 'grader_exit_code', nullable: true })
  graderExitCode: number | null;

  /** Delegation metrics and other per-execution figures computed when it ends (libs/metrics). */
  @Column('jsonb', { nullable: true })
  summary: Record<string, unknown> | null;

  @Column('timestamptz', { name: 'started_at', nullable: true })
  startedAt: Date | null;

  @Column('timestamptz', { name: 'finished_at', nullable: true })
  finishedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt: Date;
}
