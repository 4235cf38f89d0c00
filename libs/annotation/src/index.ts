import {
  AdjudicationEntity,
  AnnotationAssignmentEntity,
  AnnotationCampaignEntity,
  AnnotationCommentEntity,
  AnnotationEntity,
  AnnotationItemEntity,
  AnnotationSuggestionEntity,
} from './entities/annotation.entity.js';
import { CodebookEntity, CodebookVersionEntity } from './entities/codebook.entity.js';

export * from './entities/annotation.entity.js';
export * from './entities/codebook.entity.js';
export * from './starter-codebook.js';
export * from './detectors/index.js';
export const annotationEntities = [
  CodebookEntity,
  CodebookVersionEntity,
  AnnotationCampaignEntity,
  AnnotationItemEntity,
  AnnotationAssignmentEntity,
  AnnotationEntity,
  AnnotationCommentEntity,
  AdjudicationEntity,
  AnnotationSuggestionEntity,
];
export * from './annotation.module.js';
export * from './services/codebook.service.js';
export * from './services/annotation.service.js';
export * from './services/annotation-results.service.js';
