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
  static register(options: { secretsKey: Buffer }): DynamicModule {
    const catalog = CatalogModule.register(options);
    return {
      module: CampaignsModule,
      imports: [catalog],
      providers: [{ provide: Clock, useClass: SystemClock }, CampaignPlanner, CampaignService, ResultsCache, ResultsViewService],
      exports: [CampaignService, ResultsCache, ResultsViewService, catalog],
    };
  }
}
