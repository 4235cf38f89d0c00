import { requireOrgId } from '#libs/database';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { StripeGateway } from './stripe.gateway.js';

/** The Stripe customer of an org, created the first time something needs it. */
@Injectable()
export class StripeCustomerService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly gateway: StripeGateway,
  ) {}

  /**
   * The org's customer id, creating the customer on first use. Two callers
   * racing (two workers, a crash between create and store) get the same
   * customer: Stripe answers a repeated idempotency key with the first result,
   * and only the first stored id is kept.
   */
  async ensure(orgId: string): Promise<string> {
    requireOrgId(orgId);
    const [org] = await this.dataSource.query<{ name: string; stripe_customer_id: string | null }[]>(
      `SELECT name, stripe_customer_id FROM organizations WHERE id = $1`,
      [orgId],
    );
    if (!org) throw new Error(`organization ${orgId} not found`);
    if (org.stripe_customer_id) return org.stripe_customer_id;
    const customer = await this.gateway.createCustomer({ orgId, name: org.name, idempotencyKey: `fanout-customer-${orgId}` });
    await this.dataSource.query(`UPDATE organizations SET stripe_customer_id = $2 WHERE id = $1 AND stripe_customer_id IS NULL`, [orgId, customer.id]);
    const [stored] = await this.dataSource.query<{ stripe_customer_id: string }[]>(`SELECT stripe_customer_id FROM organizations WHERE id = $1`, [orgId]);
    return stored!.stripe_customer_id;
  }
}
