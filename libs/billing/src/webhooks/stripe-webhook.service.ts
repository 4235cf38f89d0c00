import { DomainException, ErrorCode } from '#libs/common';
import { isUuid, queryReturning } from '#libs/database';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { BILLING_OPTIONS, type BillingOptions } from '../billing.options.js';
import { StripeGateway, WebhookSignatureError, type StripeWebhookEvent } from '../stripe/stripe.gateway.js';
import { MICROS_PER_CENT, dollars, effectOf, orgReferenceOf, type WebhookEffect } from './webhook-effects.js';

export interface WebhookResult {
  /** The event had been applied before: nothing changed this time. */
  duplicate: boolean;
  outcome: string;
}

/**
 * Applies Stripe webhook events exactly once: the event id is inserted into
 * stripe_webhook_events in the same transaction as its effect, so a
 * redelivery (or two deliveries at once: the second waits on the first's
 * key, then finds it) changes nothing. Effects touch only the org the event
 * names.
 */
@Injectable()
export class StripeWebhookService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly gateway: StripeGateway,
    @Inject(BILLING_OPTIONS) private readonly options: BillingOptions,
  ) {}

  /** Verifies the signature over the raw body, then applies the event. */
  async receive(rawBody: Buffer | undefined, signature: string | undefined): Promise<WebhookResult> {
    const stripe = this.options.stripe;
    if (!stripe) {
      throw new DomainException(ErrorCode.NOT_FOUND, 'Stripe billing is off on this server: set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET to receive Stripe webhooks');
    }
    if (!stripe.webhookSecret) {
      throw new DomainException(ErrorCode.NOT_FOUND, "Stripe webhooks are off on this server: set STRIPE_WEBHOOK_SECRET to the endpoint's signing secret (whsec_...)");
    }
    if (!signature) throw DomainException.badInput('stripe-signature', 'the Stripe-Signature header Stripe sends with every webhook');
    if (!rawBody || rawBody.length === 0) throw DomainException.badInput('body', 'the JSON event Stripe sent, with content-type application/json');
    let event: StripeWebhookEvent;
    try {
      event = await this.gateway.verifyWebhook(rawBody, signature);
    } catch (err) {
      if (err instanceof WebhookSignatureError) throw new DomainException(ErrorCode.BAD_USER_INPUT, `stripe-signature: does not verify: ${err.message}`, 'stripe-signature');
      throw err;
    }
    const result = await this.apply(event);
    this.options.logger.info({ eventId: event.id, type: event.type, duplicate: result.duplicate, outcome: result.outcome }, 'stripe webhook');
    return result;
  }

  /** Applies a verified event, once. */
  private apply(event: StripeWebhookEvent): Promise<WebhookResult> {
    return this.dataSource.transaction(async (manager) => {
      const effect = effectOf(event);
      const orgId = effect.kind === 'unhandled' ? null : await this.findOrg(manager, event);
      const claimed = await queryReturning<{ id: string }>(
        manager,
        `INSERT INTO stripe_webhook_events (id, type, org_id, outcome) VALUES ($1, $2, $3, 'applying') ON CONFLICT (id) DO NOTHING RETURNING id`,
        [event.id, event.type, orgId],
      );
      if (claimed.length === 0) {
        const [previous] = await manager.query<{ outcome: string }[]>(`SELECT outcome FROM stripe_webhook_events WHERE id = $1`, [event.id]);
        return { duplicate: true, outcome: previous?.outcome ?? 'already applied' };
      }
      const outcome =
        effect.kind === 'unhandled' ? `ignored: unhandled event type` : orgId === null ? 'ignored: unknown customer' : await this.applyEffect(manager, orgId, effect);
      await manager.query(`UPDATE stripe_webhook_events SET outcome = $2 WHERE id = $1`, [event.id, outcome]);
      return { duplicate: false, outcome };
    });
  }

  /** By Stripe customer first; a checkout session may instead carry the org id Fanout gave it. */
  private async findOrg(manager: EntityManager, event: StripeWebhookEvent): Promise<string | null> {
    const ref = orgReferenceOf(event);
    if (ref.customerId) {
      const rows = await manager.query<{ id: string }[]>(`SELECT id FROM organizations WHERE stripe_customer_id = $1 LIMIT 2`, [ref.customerId]);
      if (rows.length === 1) return rows[0]!.id;
      if (rows.length > 1) return null;
    }
    if (ref.orgIdHint && isUuid(ref.orgIdHint)) {
      const rows = await manager.query<{ id: string; stripe_customer_id: string | null }[]>(`SELECT id, stripe_customer_id FROM organizations WHERE id = $1`, [ref.orgIdHint]);
      // An org already linked to another customer is not re-pointed by a session's hint.
      if (rows[0] && (rows[0].stripe_customer_id === null || ref.customerId === null || rows[0].stripe_customer_id === ref.customerId)) return rows[0].id;
    }
    return null;
  }

  private async applyEffect(manager: EntityManager, orgId: string, effect: Exclude<WebhookEffect, { kind: 'unhandled' }>): Promise<string> {
    switch (effect.kind) {
      case 'credit':
        return this.credit(manager, orgId, effect);
      case 'hold': {
        await manager.query(`UPDATE organizations SET billing_hold = $2 WHERE id = $1`, [orgId, effect.on]);
        return effect.on ? `billing hold on: invoice ${effect.invoiceId} payment failed` : `billing hold off: invoice ${effect.invoiceId} paid`;
      }
      case 'plan': {
        if (effect.plan === null && effect.maxConcurrency === null) {
          return `plan unchanged: no price lookup_key, plan or max_concurrency metadata (subscription ${effect.status})`;
        }
        await manager.query(`UPDATE organizations SET plan = COALESCE($2, plan), max_concurrency = COALESCE($3, max_concurrency) WHERE id = $1`, [
          orgId,
          effect.plan,
          effect.maxConcurrency,
        ]);
        const parts = [effect.plan !== null ? `plan ${effect.plan}` : 'plan unchanged', effect.maxConcurrency !== null ? `max concurrency ${effect.maxConcurrency}` : null];
        if (effect.invalidConcurrency !== null) parts.push(`max_concurrency metadata ${JSON.stringify(effect.invalidConcurrency)} ignored (expected an integer 1-10000)`);
        return `${parts.filter(Boolean).join(', ')} (subscription ${effect.status})`;
      }
    }
  }

  /** Prepaid credit raises the org's monthly cap; with no cap there is nothing to raise, and that is recorded. */
  private async credit(manager: EntityManager, orgId: string, effect: Extract<WebhookEffect, { kind: 'credit' }>): Promise<string> {
    const notes: string[] = [];
    if (effect.linkCustomer) {
      const linked = await queryReturning(manager, `UPDATE organizations SET stripe_customer_id = $2 WHERE id = $1 AND stripe_customer_id IS NULL RETURNING id`, [orgId, effect.linkCustomer]);
      if (linked.length) notes.push(`customer ${effect.linkCustomer} linked`);
    }
    const suffix = notes.length ? `; ${notes.join('; ')}` : '';
    if (effect.mode !== 'payment') return `no credit: ${effect.mode} checkout${suffix}`;
    if (effect.paymentStatus === 'unpaid') return `no credit yet: payment not completed (credited on checkout.session.async_payment_succeeded)${suffix}`;
    if (effect.currency !== 'usd') return `ignored: credit in ${effect.currency.toUpperCase()}, budgets are in USD${suffix}`;
    const micros = effect.cents * MICROS_PER_CENT;
    const [raised] = await queryReturning<{ before: string; after: string }>(
      manager,
      `UPDATE organizations SET monthly_budget_micros = monthly_budget_micros + $2
        WHERE id = $1 AND monthly_budget_micros IS NOT NULL
        RETURNING monthly_budget_micros - $2 AS before, monthly_budget_micros AS after`,
      [orgId, micros],
    );
    if (!raised) return `credit +${dollars(micros)} recorded: no monthly budget set, left uncapped${suffix}`;
    return `credit +${dollars(micros)}: monthly budget ${dollars(Number(raised.before))} -> ${dollars(Number(raised.after))}${suffix}`;
  }
}
