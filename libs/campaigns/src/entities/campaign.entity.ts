import { bigintNumber } from '#libs/database';
import { Check, Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import type { CampaignPlan } from '../planning/campaign-plan.js';

export type CampaignStatus = 'created' | 'running' | 'paused' | 'cancelled' | 'completed';

@Entity('campaigns')
@Index('campaigns_org_idx', ['orgId', 'createdAt'])
@Check('campaigns_status_check', `"status" IN ('created','running','paused','cancelled','completed')`)
@Check('campaigns_visibility_check', `"visibility" IN ('public','private')`)
export class CampaignEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'org_id' })
  orgId: string;

  @Column('text')
  name: string;

  @Column('text', { nullable: true })
  description: string | null;

  @Column('text')
  status: CampaignStatus;

  @Column('text')
  visibility: 'public' | 'private';

  @Column('bigint', { transformer: bigintNumber })
  seed: number;

  @Column('integer')
  repetitions: number;

  @Column('integer', { name: 'max_concurrency' })
  maxConcurrency: number;

  @Column('bigint', { name: 'budget_micros', transformer: bigintNumber })
  budgetMicros: number;

  /** Spend so far (the ledger's sum), moved in the ledger's transaction. */
  @Column('bigint', { name: 'spent_micros', default: 0, transformer: bigintNumber })
  spentMicros: number;

  /** Estimated cost of the executions dispatched and not yet settled. */
  @Column('bigint', { name: 'reserved_micros', default: 0, transformer: bigintNumber })
  reservedMicros: number;

  /** Why a paused campaign is paused: by its user, or by a cap (it resumes when the cap is raised). */
  @Column('text', { name: 'pause_reason', nullable: true })
  pauseReason: 'user' | 'budget' | 'org_budget' | null;

  @Column('integer', { name: 'execution_count' })
  executionCount: number;

  /** What was sampled and pinned (versions, sample table, estimate): the campaign's record of itself. */
  @Column('jsonb')
  plan: CampaignPlan;

  @Column('uuid', { name: 'created_by_user_id', nullable: true })
  createdByUserId: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt: Date;

  @Column('timestamptz', { name: 'launched_at', nullable: true })
  launchedAt: Date | null;
}
