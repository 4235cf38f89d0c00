import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** A Stripe webhook event applied: its id is the key, inserted in the transaction that applies it, so a redelivery is a no-op. */
@Entity('stripe_webhook_events')
export class StripeWebhookEventEntity {
  @PrimaryColumn('text')
  id: string;

  @Column('text')
  type: string;

  @Column('uuid', { name: 'org_id', nullable: true })
  orgId: string | null;

  /** What applying it did, for support ("credit +$50.00", "billing hold on", "ignored: unknown customer"). */
  @Column('text')
  outcome: string;

  @CreateDateColumn({ name: 'received_at', type: 'timestamptz', precision: 3 })
  receivedAt: Date;
}
