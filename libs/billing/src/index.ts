import { StripeMeterEventEntity } from './entities/stripe-meter-event.entity.js';
import { StripeWebhookEventEntity } from './entities/stripe-webhook-event.entity.js';

export { StripeMeterEventEntity, StripeWebhookEventEntity };
export const billingEntities = [StripeMeterEventEntity, StripeWebhookEventEntity];
