export * from './entities/index.js';
export * from './planning/campaign-plan.js';
