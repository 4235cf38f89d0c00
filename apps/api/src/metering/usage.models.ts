import { Field, Float, ID, Int, ObjectType, registerEnumType } from '@nestjs/graphql';

export enum UsageDimension {
  CAMPAIGN = 'campaign',
  AGENT = 'agent',
  MODEL = 'model',
  MODE = 'mode',
  DAY = 'day',
}
registerEnumType(UsageDimension, { name: 'UsageDimension', description: 'What usage rows are grouped by. No grouping: your organization\'s total.' });

@ObjectType({ description: 'Tokens of each disjoint usage kind (docs/metrics.md, Cost), summed over model calls.' })
export class UsageTokens {
  @Field(() => Float) uncachedInput: number;
  @Field(() => Float) cacheRead: number;
  @Field(() => Float) cacheWrite: number;
  @Field(() => Float, { description: 'Reasoning included.' }) output: number;
  @Field(() => Float, { description: 'Part of output, shown on its own.' }) reasoning: number;
  @Field(() => Float, { description: 'uncachedInput + cacheRead + cacheWrite + output.' }) total: number;
}

@ObjectType({ description: 'One group of recorded model calls (the usage ledger). A key is null when the rows are not grouped by it.' })
export class UsageRow {
  @Field(() => ID, { nullable: true }) campaignId: string | null;
  @Field(() => String, { nullable: true }) campaignName: string | null;
  @Field(() => String, { nullable: true, description: 'Agent name.' }) agent: string | null;
  @Field(() => String, { nullable: true }) model: string | null;
  @Field(() => String, { nullable: true }) mode: string | null;
  @Field(() => String, { nullable: true, description: 'UTC day of the calls, YYYY-MM-DD.' }) day: string | null;
  @Field(() => Int) calls: number;
  @Field(() => Int, { description: 'Executions with at least one call in the group.' }) executions: number;
  @Field(() => UsageTokens) tokens: UsageTokens;
  @Field(() => Float, { description: 'Sum of the calls\' costs (integer micro-dollars, converted once).' }) costUsd: number;
  @Field(() => Int, { description: 'Calls of models with no price in force at their time: recorded with cost 0 and flagged.' }) unpricedCalls: number;
  @Field(() => Int, { nullable: true, description: 'Resolved executions of the group; null when grouped by model or day (an execution can fall in several groups).' })
  resolved: number | null;
  @Field(() => Float, { nullable: true, description: 'costUsd / resolved; null when none resolved (or resolved is null).' })
  costPerResolvedUsd: number | null;
}
