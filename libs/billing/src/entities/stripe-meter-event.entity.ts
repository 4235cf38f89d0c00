import { bigintNumber } from '#libs/database';
import { Check, Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * Outbox of Stripe Billing Meter events: one row per org and closed hour of
 * recorded spend, with a deterministic identifier (meter + org + hour), so a
 * resend after a crash can never bill twice. Sent after commit, retried with
 * backoff; a duplicate answer from Stripe counts as delivered.
 */
@Entity('stripe_meter_events')
@Index('stripe_meter_events_due_idx', ['status', 'nextAttemptAt'])
@Check('stripe_meter_events_status_check', `"status" IN ('pending','delivered','failed')`)
export class StripeMeterEventEntity {
  @PrimaryColumn('uuid', { name: 'org_id' })
  orgId: string;

  /** Start of the UTC hour. */
  @PrimaryColumn('timestamptz')
  hour: Date;

  @Index('stripe_meter_events_identifier_key', { unique: true })
  @Column('text')
  identifier: string;

  @Column('text', { name: 'event_name' })
  eventName: string;

  /** Spend of the hour in integer micro-dollars. */
  @Column('bigint', { transformer: bigintNumber })
  value: number;

  @Column('text', { default: 'pending' })
  status: 'pending' | 'delivered' | 'failed';

  @Column('integer', { default: 0 })
  attempts: number;

  @Column('timestamptz', { name: 'next_attempt_at', default: () => 'now()' })
  nextAttemptAt: Date;

  @Column('text', { name: 'last_error', nullable: true })
  lastError: string | null;

  @Column('timestamptz', { name: 'delivered_at', nullable: true })
  deliveredAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;
}
