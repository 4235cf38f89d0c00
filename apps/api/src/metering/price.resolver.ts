import { Role, type Principal } from '#libs/identity';
import { CostRecomputeService, ModelPriceService, type PriceVersionView } from '#libs/metering';
import { Args, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import { CurrentPrincipal, RequireRole } from '../auth/auth.decorators.js';
import { CostRecompute, ModelPrice, PriceScope, SetModelPriceInput } from './price.models.js';

const usd = (micros: number) => micros / 1e6;

function priceView(v: PriceVersionView): ModelPrice {
  return {
    id: v.id,
    scope: v.scope === 'org' ? PriceScope.ORG : PriceScope.PLATFORM,
    model: v.model,
    effectiveFrom: v.effectiveFrom,
    inputUsdPerMTok: usd(v.prices.uncachedInput),
    cacheReadUsdPerMTok: usd(v.prices.cacheRead),
    cacheWriteUsdPerMTok: usd(v.prices.cacheWrite),
    outputUsdPerMTok: usd(v.prices.output),
    note: v.note,
    createdAt: v.createdAt,
    inForce: v.inForce,
  };
}

@Resolver(() => ModelPrice)
export class ModelPriceResolver {
  constructor(
    private readonly prices: ModelPriceService,
    private readonly recomputes: CostRecomputeService,
  ) {}

  @Query(() => [ModelPrice], {
    complexity: 20,
    description: 'The platform default prices and your organization\'s overrides (an override wins). Without history: per model and scope, the version in force now and any scheduled ones.',
  })
  async modelPrices(
    @CurrentPrincipal() principal: Principal,
    @Args('model', { type: () => String, nullable: true }) model?: string | null,
    @Args('includeHistory', { type: () => Boolean, nullable: true, defaultValue: false }) includeHistory?: boolean | null,
  ): Promise<ModelPrice[]> {
    return (await this.prices.list(principal, { model: model ?? null, includeHistory: includeHistory ?? false })).map(priceView);
  }

  @Mutation(() => ModelPrice, {
    description: 'A new price version, effective from now or later. ORG: your organization\'s price (ADMIN). PLATFORM: the default for every org (platform admins). Past costs never change; see recomputeCampaignCosts.',
  })
  async setModelPrice(@CurrentPrincipal() principal: Principal, @Args('input') input: SetModelPriceInput): Promise<ModelPrice> {
    return priceView(await this.prices.set(principal, { ...input, scope: input.scope === PriceScope.ORG ? 'org' : 'platform' }));
  }

  @RequireRole(Role.ADMIN)
  @Mutation(() => CostRecompute, {
    description: 'Re-prices the campaign\'s recorded model calls with the prices in force at each call\'s time as the book stands now; updates call, execution and campaign costs, and is logged.',
  })
  async recomputeCampaignCosts(@CurrentPrincipal() principal: Principal, @Args('campaign', { type: () => ID }) campaign: string): Promise<CostRecompute> {
    const r = await this.recomputes.recompute(principal, campaign);
    return {
      id: r.id,
      campaignId: r.campaignId,
      calls: r.calls,
      changedCalls: r.changedCalls,
      unpricedCalls: r.unpricedCalls,
      beforeUsd: usd(r.beforeMicros),
      afterUsd: usd(r.afterMicros),
      createdAt: r.createdAt,
    };
  }
}
