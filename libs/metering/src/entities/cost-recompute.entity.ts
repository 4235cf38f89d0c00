import { bigintNumber } from '#libs/database';
import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/** An explicit re-pricing of a campaign's ledger with the current price book: who, when, and the totals before and after. */
@Entity('cost_recomputes')
@Index('cost_recomputes_org_idx', ['orgId', 'createdAt'])
export class CostRecomputeEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'org_id' })
  orgId: string;

  @Column('uuid', { name: 'campaign_id' })
  campaignId: string;

  @Column('uuid', { name: 'requested_by_user_id', nullable: true })
  requestedByUserId: string | null;

  @Column('integer', { name: 'calls' })
  calls: number;

  @Column('bigint', { name: 'before_micros', transformer: bigintNumber })
  beforeMicros: number;

  @Column('bigint', { name: 'after_micros', transformer: bigintNumber })
  afterMicros: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;
}
