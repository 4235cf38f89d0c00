import type { StripeConfig } from '#libs/config';
import type { Stripe } from 'stripe';
import { StripeGateway, WebhookSignatureError, type MeterEventRequest, type StripeWebhookEvent } from './stripe.gateway.js';

/** Stripe's answer to a meter event identifier it already holds (400 invalid_request_error, not retryable). */
const DUPLICATE_IDENTIFIER = /already exists with identifier/i;

/**
 * The real adapter over the official `stripe` client (api.stripe.com, or the
 * server STRIPE_API_URL names). The client is loaded on first use: every
 * process that lists entities imports this library, and only the API with
 * Stripe on needs the client.
 */
export class StripeClientGateway extends StripeGateway {
  private client: Promise<{ stripe: Stripe; StripeClass: typeof Stripe }> | null = null;

  constructor(private readonly config: StripeConfig) {
    super();
  }

  async createCustomer(input: { orgId: string; name: string; idempotencyKey: string }): Promise<{ id: string }> {
    const { stripe } = await this.load();
    const customer = await stripe.customers.create({ name: input.name, metadata: { org_id: input.orgId } }, { idempotencyKey: input.idempotencyKey });
    return { id: customer.id };
  }

  async createMeterEvent(event: MeterEventRequest): Promise<'created' | 'duplicate'> {
    const { stripe, StripeClass } = await this.load();
    try {
      await stripe.billing.meterEvents.create({
        event_name: event.eventName,
        payload: { stripe_customer_id: event.customerId, value: String(event.value) },
        identifier: event.identifier,
        timestamp: event.timestamp,
      });
      return 'created';
    } catch (err) {
      if (err instanceof StripeClass.errors.StripeInvalidRequestError && DUPLICATE_IDENTIFIER.test(err.message)) return 'duplicate';
      throw err;
    }
  }

  async verifyWebhook(rawBody: Buffer, signature: string): Promise<StripeWebhookEvent> {
    if (!this.config.webhookSecret) throw new WebhookSignatureError('STRIPE_WEBHOOK_SECRET is not set');
    const { stripe } = await this.load();
    try {
      return stripe.webhooks.constructEvent(rawBody, signature, this.config.webhookSecret) as unknown as StripeWebhookEvent;
    } catch (err) {
      throw new WebhookSignatureError((err as Error).message.split('\n')[0]!);
    }
  }

  private load() {
    this.client ??= import('stripe').then(({ Stripe: StripeClass }) => ({
      StripeClass,
      stripe: new StripeClass(this.config.secretKey, {
        ...(this.config.api ?? {}),
        // The outbox retries with its own backoff and deterministic identifiers; the client must not add a second layer.
        maxNetworkRetries: 0,
        timeout: 20_000,
        telemetry: false,
        appInfo: { name: 'fanout' },
      }),
    }));
    return this.client;
  }
}
