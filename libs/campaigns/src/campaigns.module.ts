import { CatalogModule } from '#libs/catalog';
import { Clock, SystemClock } from '#libs/common';
import { Module, type DynamicModule } from '@nestjs/common';
import { CampaignPlanner } from './planning/campaign-planner.js';
import { CampaignService } from './services/campaign.service.js';
import { ResultsCache } from './services/results-cache.js';
import { ResultsViewService } from './services/results-views.service.js';

/** Campaign planning and lifecycle. */
@Module({})
export class CampaignsModule {
  /** One module (one ResultsCache, one CampaignService) per key, however many modules import it. */
  private static readonly registered = new WeakMap<Buffer, DynamicModule>();

  static register(options: { secretsKey: Buffer }): DynamicModule {
    const existing = CampaignsModule.registered.get(options.secretsKey);
    if (existing) return existing;
    const catalog = CatalogModule.register(options);
    const module: DynamicModule = {
      module: CampaignsModule,
      imports: [catalog],
      providers: [{ provide: Clock, useClass: SystemClock }, CampaignPlanner, CampaignService, ResultsCache, ResultsViewService],
      exports: [CampaignService, ResultsCache, ResultsViewService, catalog],
    };
    CampaignsModule.registered.set(options.secretsKey, module);
    return module;
  }
}
