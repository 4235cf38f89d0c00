import { BudgetAlertEntity } from './entities/budget-alert.entity.js';
import { CostRecomputeEntity } from './entities/cost-recompute.entity.js';
import { LedgerEntryEntity } from './entities/ledger-entry.entity.js';
import { ModelPriceEntity } from './entities/model-price.entity.js';
import { OrgSpendEntity } from './entities/org-spend.entity.js';

export { BudgetAlertEntity, CostRecomputeEntity, LedgerEntryEntity, ModelPriceEntity, OrgSpendEntity };
export const meteringEntities = [ModelPriceEntity, LedgerEntryEntity, OrgSpendEntity, BudgetAlertEntity, CostRecomputeEntity];
export * from './services/price-book.js';
export * from './services/ledger.service.js';
export * from './metering.module.js';
export * from './services/model-price.service.js';
export * from './services/cost-recompute.service.js';
export * from './services/usage.service.js';
export * from './services/alert-query.service.js';
export * from './services/alert-delivery.service.js';
