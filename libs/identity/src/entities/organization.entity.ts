import { bigintNumber } from '#libs/database';
import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

@Entity('organizations')
export class OrganizationEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Index('organizations_slug_key', { unique: true })
  @Column('text')
  slug: string;

  @Column('text')
  name: string;

  /** The org made for a user at sign-up. */
  @Column('boolean', { default: false })
  personal: boolean;

  /** Executions of this org running at once, across its campaigns. */
  @Column('integer', { name: 'max_concurrency', default: 8 })
  maxConcurrency: number;

  /** Cap on the org's spend per calendar month (UTC), micro-dollars; null for none. */
  @Column('bigint', { name: 'monthly_budget_micros', nullable: true, transformer: bigintNumber })
  monthlyBudgetMicros: number | null;

  /** Called (POST, JSON) when spend crosses 50 / 80 / 100 % of a cap. */
  @Column('text', { name: 'alert_webhook_url', nullable: true })
  alertWebhookUrl: string | null;

  /** Set by a failed invoice payment: no campaign may be launched until it is paid. */
  @Column('boolean', { name: 'billing_hold', default: false })
  billingHold: boolean;

  @Column('text', { name: 'stripe_customer_id', nullable: true })
  stripeCustomerId: string | null;

  /** The subscription's plan (from Stripe), when billing is on. */
  @Column('text', { nullable: true })
  plan: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;
}
