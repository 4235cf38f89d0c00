import { CampaignsModule } from '#libs/campaigns';
import { Module, type DynamicModule } from '@nestjs/common';
import { AnnotationResultsService } from './services/annotation-results.service.js';
import { AnnotationService } from './services/annotation.service.js';
import { CodebookService } from './services/codebook.service.js';

/** Failure annotation: codebooks, double-blind labelling, adjudication, agreement. */
@Module({})
export class AnnotationModule {
  static register(options: { secretsKey: Buffer }): DynamicModule {
    return {
      module: AnnotationModule,
      imports: [CampaignsModule.register(options)],
      providers: [CodebookService, AnnotationService, AnnotationResultsService],
      exports: [CodebookService, AnnotationService, AnnotationResultsService],
    };
  }
}
