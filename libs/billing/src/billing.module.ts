import { Clock, SystemClock } from '#libs/common';
import { Module, type DynamicModule } from '@nestjs/common';
import { BILLING_OPTIONS, type BillingOptions } from './billing.options.js';
import { BillingWorker } from './meter/billing.worker.js';
import { MeterOutboxService } from './meter/meter-outbox.service.js';
import { StripeClientGateway } from './stripe/stripe-client.gateway.js';
import { StripeCustomerService } from './stripe/stripe-customer.service.js';
import { StripeGateway, type MeterEventRequest, type StripeWebhookEvent } from './stripe/stripe.gateway.js';
import { BillingStatusService } from './billing-status.service.js';
import { StripeWebhookService } from './webhooks/stripe-webhook.service.js';

/** Stands in for the gateway when Stripe is off; nothing reaches it (the worker is off and the webhook answers 404 first). */
class StripeOffGateway extends StripeGateway {
  createCustomer(): Promise<{ id: string }> {
    return Promise.reject(new Error('Stripe billing is off (STRIPE_SECRET_KEY is not set)'));
  }
  createMeterEvent(_event: MeterEventRequest): Promise<'created' | 'duplicate'> {
    return Promise.reject(new Error('Stripe billing is off (STRIPE_SECRET_KEY is not set)'));
  }
  verifyWebhook(): Promise<StripeWebhookEvent> {
    return Promise.reject(new Error('Stripe billing is off (STRIPE_SECRET_KEY is not set)'));
  }
}

/**
 * Stripe billing: customers, the meter outbox and its worker, webhooks.
 * Registered always; with `stripe: null` nothing calls Stripe. Needs
 * TypeORM's root module in the importing app.
 */
@Module({})
export class BillingModule {
  static register(options: BillingOptions): DynamicModule {
    const gateway = options.stripe ? new StripeClientGateway(options.stripe) : new StripeOffGateway();
    return {
      module: BillingModule,
      providers: [
        { provide: BILLING_OPTIONS, useValue: { stripe: options.stripe, logger: options.logger } satisfies BillingOptions },
        { provide: StripeGateway, useValue: gateway },
        { provide: Clock, useClass: SystemClock },
        StripeCustomerService,
        MeterOutboxService,
        StripeWebhookService,
        BillingStatusService,
        BillingWorker,
      ],
      exports: [StripeCustomerService, MeterOutboxService, StripeWebhookService, BillingStatusService, BillingWorker],
    };
  }
}
