import { Clock, SystemClock } from '#libs/common';
import { LOGGER } from '#libs/observability';
import { Module, type DynamicModule } from '@nestjs/common';
import type { Logger } from 'pino';
import {
  ALERT_DELIVERY_OPTIONS,
  AlertDeliveryService,
  AlertWebhookSender,
  DEFAULT_ALERT_DELIVERY,
  FetchAlertWebhookSender,
  type AlertDeliveryOptions,
} from './services/alert-delivery.service.js';
import { AlertQueryService } from './services/alert-query.service.js';
import { CostRecomputeService } from './services/cost-recompute.service.js';
import { ModelPriceService } from './services/model-price.service.js';
import { UsageService } from './services/usage.service.js';

export interface MeteringModuleOptions {
  logger: Logger;
  alertDelivery?: Partial<AlertDeliveryOptions>;
}

/** The price book's management, cost recomputes, usage views and budget alert delivery. Needs TypeORM's root module. */
@Module({})
export class MeteringModule {
  static register(options: MeteringModuleOptions): DynamicModule {
    return {
      module: MeteringModule,
      providers: [
        { provide: Clock, useClass: SystemClock },
        { provide: LOGGER, useValue: options.logger },
        { provide: ALERT_DELIVERY_OPTIONS, useValue: Object.freeze({ ...DEFAULT_ALERT_DELIVERY, ...options.alertDelivery }) },
        { provide: AlertWebhookSender, useClass: FetchAlertWebhookSender },
        ModelPriceService,
        CostRecomputeService,
        UsageService,
        AlertQueryService,
        AlertDeliveryService,
      ],
      exports: [ModelPriceService, CostRecomputeService, UsageService, AlertQueryService, AlertDeliveryService],
    };
  }
}
