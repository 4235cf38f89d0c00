import { Field, Float, GraphQLISODateTime, ID, Int, ObjectType, registerEnumType } from '@nestjs/graphql';
import { Connection } from '../graphql/connection.js';

export enum AlertScope {
  CAMPAIGN = 'campaign',
  ORG = 'org',
}
registerEnumType(AlertScope, { name: 'AlertScope' });

export enum AlertWebhookStatus {
  NONE = 'none',
  PENDING = 'pending',
  DELIVERED = 'delivered',
  FAILED = 'failed',
}
registerEnumType(AlertWebhookStatus, { name: 'AlertWebhookStatus', description: 'NONE: the organization had no webhook URL when the alert was raised.' });

@ObjectType({ description: 'Spend crossed a share of a cap: a campaign\'s budget, or the organization\'s monthly budget.' })
export class BudgetAlert {
  @Field(() => ID) id: string;
  @Field(() => AlertScope) scope: AlertScope;
  @Field(() => ID, { nullable: true }) campaignId: string | null;
  @Field(() => String, { nullable: true }) campaignName: string | null;
  @Field(() => String, { nullable: true, description: 'The month (YYYY-MM, UTC) of an organization cap; null for a campaign cap.' }) period: string | null;
  @Field(() => Int, { description: 'Percent of the cap: 50, 80 or 100.' }) threshold: number;
  @Field(() => Float, { description: 'Spend when the alert was raised.' }) spentUsd: number;
  @Field(() => Float) capUsd: number;
  @Field(() => GraphQLISODateTime) createdAt: Date;
  @Field(() => AlertWebhookStatus) webhookStatus: AlertWebhookStatus;
  @Field(() => Int) webhookAttempts: number;
  @Field(() => String, { nullable: true, description: 'Why the last webhook attempt failed.' }) webhookLastError: string | null;
}

@ObjectType()
export class BudgetAlertConnection extends Connection(BudgetAlert) {}
