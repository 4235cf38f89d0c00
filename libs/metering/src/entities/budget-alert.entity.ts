import { bigintNumber } from '#libs/database';
import { Check, Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * Spend crossed a share of a cap (50, 80 or 100 %): once per campaign and
 * threshold, or per org, month and threshold (`dedupeKey` is unique). Raised
 * in the ledger's transaction; the org's webhook, when set, is called after
 * commit from this row (outbox), retried with backoff.
 */
@Entity('budget_alerts')
@Index('budget_alerts_org_idx', ['orgId', 'createdAt'])
@Index('budget_alerts_webhook_idx', ['webhookStatus', 'nextAttemptAt'])
@Check('budget_alerts_scope_check', `"scope" IN ('campaign','org')`)
@Check('budget_alerts_webhook_check', `"webhook_status" IN ('none','pending','delivered','failed')`)
export class BudgetAlertEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'org_id' })
  orgId: string;

  @Column('text')
  scope: 'campaign' | 'org';

  @Column('uuid', { name: 'campaign_id', nullable: true })
  campaignId: string | null;

  /** The month (YYYY-MM) for an org cap; null for a campaign cap. */
  @Column('text', { nullable: true })
  period: string | null;

  @Column('integer')
  threshold: number;

  @Index('budget_alerts_dedupe_key', { unique: true })
  @Column('text', { name: 'dedupe_key' })
  dedupeKey: string;

  @Column('bigint', { name: 'spent_micros', transformer: bigintNumber })
  spentMicros: number;

  @Column('bigint', { name: 'cap_micros', transformer: bigintNumber })
  capMicros: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;

  @Column('text', { name: 'webhook_status', default: 'none' })
  webhookStatus: 'none' | 'pending' | 'delivered' | 'failed';

  @Column('integer', { name: 'webhook_attempts', default: 0 })
  webhookAttempts: number;

  @Column('timestamptz', { name: 'next_attempt_at', nullable: true })
  nextAttemptAt: Date | null;

  @Column('text', { name: 'last_error', nullable: true })
  lastError: string | null;
}
