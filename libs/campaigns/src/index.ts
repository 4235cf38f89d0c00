export * from './campaigns.module.js';
export * from './entities/index.js';
export * from './planning/campaign-plan.js';
export * from './planning/campaign-planner.js';
export * from './services/campaign.service.js';
export * from './import/index.js';
export * from './services/campaign-export.js';
export * from './services/leaderboard.js';
