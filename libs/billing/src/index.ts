import { StripeMeterEventEntity } from './entities/stripe-meter-event.entity.js';
import { StripeWebhookEventEntity } from './entities/stripe-webhook-event.entity.js';

export { StripeMeterEventEntity, StripeWebhookEventEntity };
export const billingEntities = [StripeMeterEventEntity, StripeWebhookEventEntity];

export * from './billing.module.js';
export * from './billing.options.js';
export * from './billing-status.service.js';
export * from './meter/billing.worker.js';
export * from './meter/meter-outbox.service.js';
export * from './stripe/stripe.gateway.js';
export * from './stripe/stripe-client.gateway.js';
export * from './stripe/stripe-customer.service.js';
export * from './webhooks/stripe-webhook.service.js';
