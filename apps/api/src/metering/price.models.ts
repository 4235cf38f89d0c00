import { Field, Float, GraphQLISODateTime, ID, InputType, Int, ObjectType, registerEnumType } from '@nestjs/graphql';
import { IsEnum, IsNumber, IsOptional, IsString, Length, MaxLength, Min } from 'class-validator';

export enum PriceScope {
  PLATFORM = 'platform',
  ORG = 'org',
}
registerEnumType(PriceScope, {
  name: 'PriceScope',
  description: "PLATFORM: the default every org pays (platform admins set it). ORG: your organization's negotiated price, which wins over the default.",
});

@ObjectType({ description: 'One version of a model\'s prices, in US dollars per million tokens of each disjoint usage kind (docs/metrics.md, Cost). Never changed once set: a new price is a new version.' })
export class ModelPrice {
  @Field(() => ID) id: string;
  @Field(() => PriceScope) scope: PriceScope;
  @Field() model: string;
  @Field(() => GraphQLISODateTime, { description: 'Calls at or after this time are priced with this version (until a later one takes over).' }) effectiveFrom: Date;
  @Field(() => Float, { description: 'Uncached input tokens.' }) inputUsdPerMTok: number;
  @Field(() => Float) cacheReadUsdPerMTok: number;
  @Field(() => Float) cacheWriteUsdPerMTok: number;
  @Field(() => Float, { description: 'Output tokens, reasoning included.' }) outputUsdPerMTok: number;
  @Field(() => String, { nullable: true }) note: string | null;
  @Field(() => GraphQLISODateTime) createdAt: Date;
  @Field({ description: 'The version of this model and scope in force now.' }) inForce: boolean;
}

@InputType()
export class SetModelPriceInput {
  @Field({ description: 'The model name as agents report it in their model calls.' })
  @IsString()
  @Length(1, 200)
  model: string;

  @Field(() => PriceScope)
  @IsEnum(PriceScope)
  scope: PriceScope;

  @Field(() => GraphQLISODateTime, { nullable: true, description: 'Default now. Not more than a minute in the past: a new price never reprices calls already recorded.' })
  @IsOptional()
  effectiveFrom?: Date | null;

  @Field(() => Float, { description: 'US dollars per million uncached input tokens; at most 6 decimals.' })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  inputUsdPerMTok: number;

  @Field(() => Float)
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  cacheReadUsdPerMTok: number;

  @Field(() => Float)
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  cacheWriteUsdPerMTok: number;

  @Field(() => Float)
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  outputUsdPerMTok: number;

  @Field(() => String, { nullable: true, description: 'Shown next to costs priced with it (e.g. where the price comes from).' })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  note?: string | null;
}

@ObjectType({ description: 'An explicit re-pricing of a campaign\'s recorded model calls with the price book in force at each call\'s time, as it stands now.' })
export class CostRecompute {
  @Field(() => ID) id: string;
  @Field(() => ID) campaignId: string;
  @Field(() => Int, { description: 'Model calls re-priced (all of the campaign\'s).' }) calls: number;
  @Field(() => Int, { description: 'Calls whose cost, price version or unpriced flag changed.' }) changedCalls: number;
  @Field(() => Int, { description: 'Calls with no price in force at their time (cost 0, flagged).' }) unpricedCalls: number;
  @Field(() => Float) beforeUsd: number;
  @Field(() => Float) afterUsd: number;
  @Field(() => GraphQLISODateTime) createdAt: Date;
}
