import { bigintNumber } from '#libs/database';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * One priced model call: the unit of spend. Unique by (execution, attempt, event id),
 * so a call delivered twice, or by two connections at once, is counted once.
 * Written in the same transaction as the event row and the spend counters.
 * Token kinds are disjoint (metrics.md, Cost); money in integer micro-dollars.
 */
@Entity('usage_ledger')
@Index('usage_ledger_org_recorded_idx', ['orgId', 'recordedAt'])
@Index('usage_ledger_campaign_idx', ['campaignId', 'callTime'])
export class LedgerEntryEntity {
  @PrimaryColumn('uuid', { name: 'execution_id' })
  executionId: string;

  @PrimaryColumn('integer')
  attempt: number;

  @PrimaryColumn('text', { name: 'event_id' })
  eventId: string;

  @Column('uuid', { name: 'org_id' })
  orgId: string;

  @Column('uuid', { name: 'campaign_id' })
  campaignId: string;

  @Column('uuid', { name: 'agent_config_version_id' })
  agentConfigVersionId: string;

  @Column('text', { name: 'agent_name' })
  agentName: string;

  @Column('text')
  mode: string;

  /** The agent context (main agent or sub-agent) that made the call. */
  @Column('text', { name: 'agent_id' })
  agentId: string;

  @Column('text')
  provider: string;

  @Column('text')
  model: string;

  @Column('timestamptz', { name: 'call_time' })
  callTime: Date;

  /** When the platform recorded it: billing hours follow this clock, so a closed hour never changes. */
  @Column('timestamptz', { name: 'recorded_at', default: () => 'now()' })
  recordedAt: Date;

  @Column('bigint', { name: 'uncached_input_tokens', transformer: bigintNumber })
  uncachedInputTokens: number;

  @Column('bigint', { name: 'cache_read_tokens', transformer: bigintNumber })
  cacheReadTokens: number;

  @Column('bigint', { name: 'cache_write_tokens', transformer: bigintNumber })
  cacheWriteTokens: number;

  @Column('bigint', { name: 'output_tokens', transformer: bigintNumber })
  outputTokens: number;

  @Column('bigint', { name: 'reasoning_tokens', transformer: bigintNumber })
  reasoningTokens: number;

  /** 0 when unpriced (and flagged), never a guess. */
  @Column('bigint', { name: 'cost_micros', transformer: bigintNumber })
  costMicros: number;

  /** No price was in force for the model at the call's time. */
  @Column('boolean')
  unpriced: boolean;

  /** The price book version used. */
  @Column('uuid', { name: 'price_id', nullable: true })
  priceId: string | null;
}
