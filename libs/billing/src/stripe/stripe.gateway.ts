/** What the meter outbox sends for one org and hour. */
export interface MeterEventRequest {
  eventName: string;
  customerId: string;
  /** Micro-dollars, an integer. */
  value: number;
  /** Deterministic (meter + org + hour): Stripe refuses a second event with it. */
  identifier: string;
  /** Seconds since the epoch. */
  timestamp: number;
}

/** The parts of a Stripe event Fanout reads; `data.object` is the resource as Stripe sent it. */
export interface StripeWebhookEvent {
  id: string;
  type: string;
  created: number;
  data: { object: Record<string, unknown> };
}

/** A webhook whose signature does not verify (or is missing, or too old). */
export class WebhookSignatureError extends Error {}

/**
 * Stripe, behind the one interface Fanout's services use, so they never see
 * the client library. One real adapter: StripeClientGateway.
 */
export abstract class StripeGateway {
  /** Creates a customer; the idempotency key makes a retried create answer the same customer. */
  abstract createCustomer(input: { orgId: string; name: string; idempotencyKey: string }): Promise<{ id: string }>;

  /**
   * Sends one Billing Meter event. `duplicate`: Stripe already holds an
   * event with this identifier (an earlier send landed), which is delivery.
   * Any other failure throws.
   */
  abstract createMeterEvent(event: MeterEventRequest): Promise<'created' | 'duplicate'>;

  /** Verifies the signature over the exact bytes received; throws WebhookSignatureError. */
  abstract verifyWebhook(rawBody: Buffer, signature: string): Promise<StripeWebhookEvent>;
}
