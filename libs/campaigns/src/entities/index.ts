import { CampaignEntity, type CampaignStatus } from './campaign.entity.js';
import { EXECUTION_STATUSES, ExecutionEntity, type AgentSpanRow, type ExecutionStatus } from './execution.entity.js';

export { CampaignEntity, EXECUTION_STATUSES, ExecutionEntity, type AgentSpanRow, type CampaignStatus, type ExecutionStatus };
export const campaignEntities = [CampaignEntity, ExecutionEntity];
