import { requireOrgId } from '#libs/database';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { BILLING_OPTIONS, type BillingOptions } from './billing.options.js';

export interface BillingStatus {
  /** Stripe billing is on for this server. */
  enabled: boolean;
  /** A Stripe customer exists for the org. */
  hasCustomer: boolean;
  /** An unpaid invoice: nothing new may be launched. */
  hold: boolean;
  plan: string | null;
  /** Hours of spend waiting to reach Stripe, and hours given up on (see docs/billing.md). */
  pendingHours: number;
  failedHours: number;
  /** Start of the newest hour Stripe has. */
  lastDeliveredHour: Date | null;
}

/** The billing state of one org, for its members. */
@Injectable()
export class BillingStatusService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(BILLING_OPTIONS) private readonly options: BillingOptions,
  ) {}

  async status(orgId: string): Promise<BillingStatus> {
    requireOrgId(orgId);
    const [row] = await this.dataSource.query<
      { has_customer: boolean; billing_hold: boolean; plan: string | null; pending: number; failed: number; last_delivered: Date | null }[]
    >(
      `SELECT o.stripe_customer_id IS NOT NULL AS has_customer, o.billing_hold, o.plan,
              (SELECT count(*)::int FROM stripe_meter_events m WHERE m.org_id = o.id AND m.status = 'pending') AS pending,
              (SELECT count(*)::int FROM stripe_meter_events m WHERE m.org_id = o.id AND m.status = 'failed') AS failed,
              (SELECT max(hour) FROM stripe_meter_events m WHERE m.org_id = o.id AND m.status = 'delivered') AS last_delivered
         FROM organizations o WHERE o.id = $1`,
      [orgId],
    );
    return {
      enabled: this.options.stripe !== null,
      hasCustomer: row?.has_customer ?? false,
      hold: row?.billing_hold ?? false,
      plan: row?.plan ?? null,
      pendingHours: row?.pending ?? 0,
      failedHours: row?.failed ?? 0,
      lastDeliveredHour: row?.last_delivered ?? null,
    };
  }
}
