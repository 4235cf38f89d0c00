import { CampaignService, ResultsViewService } from '#libs/campaigns';
import { DomainException } from '#libs/common';
import { GraphQLJSONObject } from 'graphql-scalars';
import { readManifest } from '#libs/catalog';
import { parseCampaignManifest, validateCampaignManifest } from '#libs/contracts';
import { Role, type Principal } from '#libs/identity';
import { Args, Context, Float, ID, Int, Mutation, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { CurrentPrincipal, Public, RequireRole } from '../auth/auth.decorators.js';
import { ManifestInput } from '../catalog/catalog.models.js';
import type { GraphqlContext } from '../graphql/loaders.js';
import { PageArgs, pagedComplexity } from '../graphql/page.args.js';
import {
  Campaign,
  CampaignConnection,
  CampaignPlan,
  CampaignProgress,
  CampaignStatus,
  Execution,
  ExecutionConnection,
  ExecutionFilterInput,
  ExecutionTokens,
  PlanCampaignResult,
} from './campaign.models.js';

const readCampaign = (input: ManifestInput) => readManifest('the campaign manifest', input, parseCampaignManifest, validateCampaignManifest);

/** Flattens the stored plan's `selection` into the GraphQL shape. */
function planView<T extends { benchmarks: { selection: { fraction?: number } | { tasks: string[] } }[] }>(plan: T) {
  return { ...plan, benchmarks: plan.benchmarks.map((b) => ({ ...b, fraction: 'fraction' in b.selection ? (b.selection.fraction ?? null) : null })) };
}

@Resolver(() => Campaign)
export class CampaignResolver {
  constructor(
    private readonly campaignService: CampaignService,
    private readonly results: ResultsViewService,
  ) {}

  @RequireRole(Role.MEMBER)
  @Mutation(() => PlanCampaignResult, { description: 'Dry run: the sample per benchmark and difficulty, the execution count and a cost estimate. Writes nothing.' })
  async planCampaign(@CurrentPrincipal() principal: Principal, @Args('input') input: ManifestInput) {
    return planView(await this.campaignService.plan(principal, readCampaign(input)));
  }

  @RequireRole(Role.MEMBER)
  @Mutation(() => Campaign, { description: 'Creates the campaign and every execution (queued) in one transaction. Not runnable until launched.' })
  createCampaign(@CurrentPrincipal() principal: Principal, @Args('input') input: ManifestInput) {
    return this.campaignService.create(principal, readCampaign(input));
  }

  @RequireRole(Role.MEMBER)
  @Mutation(() => Campaign, { description: 'Makes a created campaign runnable. Refused (BUDGET_EXCEEDED) when the estimate\'s low end is above the cap.' })
  launchCampaign(@CurrentPrincipal() principal: Principal, @Args('id', { type: () => ID }) id: string) {
    return this.campaignService.launch(principal, id);
  }

  @RequireRole(Role.MEMBER)
  @Mutation(() => Campaign)
  pauseCampaign(@CurrentPrincipal() principal: Principal, @Args('id', { type: () => ID }) id: string) {
    return this.campaignService.pause(principal, id);
  }

  @RequireRole(Role.MEMBER)
  @Mutation(() => Campaign)
  resumeCampaign(@CurrentPrincipal() principal: Principal, @Args('id', { type: () => ID }) id: string) {
    return this.campaignService.resume(principal, id);
  }

  @RequireRole(Role.MEMBER)
  @Mutation(() => Campaign, { description: 'Cancels the campaign and its queued executions.' })
  cancelCampaign(@CurrentPrincipal() principal: Principal, @Args('id', { type: () => ID }) id: string) {
    return this.campaignService.cancel(principal, id);
  }

  @Query(() => CampaignConnection, { complexity: pagedComplexity })
  campaigns(
    @CurrentPrincipal() principal: Principal,
    @Args() page: PageArgs,
    @Args('status', { type: () => [CampaignStatus], nullable: true }) status?: CampaignStatus[],
  ) {
    return this.campaignService.list(principal, page, { status });
  }

  @Public()
  @Query(() => Campaign, { description: 'One of your organization\'s campaigns, or any public campaign (also without signing in).' })
  campaign(@CurrentPrincipal() principal: Principal | undefined, @Args('id', { type: () => ID }) id: string) {
    return this.campaignService.getVisible(principal ?? null, id);
  }

  @Public()
  @Query(() => ExecutionConnection, { complexity: pagedComplexity, description: 'Your organization\'s executions, or a public campaign\'s (filter.campaignId).' })
  executions(
    @CurrentPrincipal() principal: Principal,
    @Args() page: PageArgs,
    @Args('filter', { type: () => ExecutionFilterInput, nullable: true }) filter?: ExecutionFilterInput,
  ) {
    return this.campaignService.executions(principal ?? null, filter ?? {}, page);
  }

  @Public()
  @Query(() => GraphQLJSONObject, {
    complexity: 100,
    description: 'The study\'s tables for a campaign (outcomes, paired McNemar with Holm, delegation, Spearman): libs/metrics, the same report as `fanout report`.',
  })
  async campaignReport(
    @CurrentPrincipal() principal: Principal | undefined,
    @Args('id', { type: () => ID }) id: string,
    @Args('modeA', { defaultValue: 'concurrent' }) modeA: string,
    @Args('modeB', { defaultValue: 'sequential' }) modeB: string,
    @Args('permutations', { type: () => Int, defaultValue: 10_000 }) permutations: number,
    @Args('seed', { type: () => Int, defaultValue: 1 }) seed: number,
  ) {
    if (permutations < 1 || permutations > 100_000) throw DomainException.badInput('permutations', 'an integer from 1 to 100000', permutations);
    if (modeA === modeB) throw DomainException.badInput('modeB', `a mode other than modeA ("${modeA}")`, modeB);
    return this.results.report(principal ?? null, id, { modeA, modeB, permutations, seed });
  }

  @ResolveField(() => CampaignProgress, { description: 'Executions by status.' })
  progress(@Parent() campaign: Campaign, @Context() ctx: GraphqlContext) {
    return ctx.loaders.campaignProgress.load(campaign.id);
  }

  @ResolveField(() => CampaignPlan, { description: 'What was pinned and sampled, and the estimate at creation.' })
  plan(@Parent() campaign: Campaign) {
    return planView(campaign.plan);
  }

  @ResolveField(() => Float)
  budgetUsd(@Parent() campaign: Campaign) {
    return campaign.budgetMicros / 1e6;
  }

  @ResolveField(() => Float, { description: 'Dollars spent so far: every priced model call, recorded as it happens (the ledger).' })
  spentUsd(@Parent() campaign: Campaign) {
    return campaign.spentMicros / 1e6;
  }

  @ResolveField(() => Float, { description: 'Estimated cost of the executions running now, held against the cap until they end.' })
  reservedUsd(@Parent() campaign: Campaign) {
    return campaign.reservedMicros / 1e6;
  }

  @ResolveField(() => Float, { description: 'What in-flight work spent past the cap (0 when within it).' })
  overrunUsd(@Parent() campaign: Campaign) {
    return Math.max(0, campaign.spentMicros - campaign.budgetMicros) / 1e6;
  }
}

@Resolver(() => CampaignProgress)
export class CampaignProgressResolver {
  @ResolveField(() => Float, { description: 'Dollars spent so far (sum of execution costs).' })
  spentUsd(@Parent() p: CampaignProgress) {
    return Math.round(p.costMicros) / 1e6;
  }

  @ResolveField(() => Float, { nullable: true, description: 'Task pass so far: resolved / finished (completed + infra failed); null before any finished.' })
  passSoFar(@Parent() p: CampaignProgress) {
    const finished = p.completed + p.infra_failed;
    return finished === 0 ? null : p.resolved / finished;
  }
}

@Resolver(() => Execution)
export class ExecutionResolver {
  @ResolveField(() => Float, { nullable: true, description: 'Dollars (stored as integer micro-dollars).' })
  costUsd(@Parent() e: Execution) {
    return e.costMicros == null ? null : e.costMicros / 1e6;
  }

  @ResolveField(() => ExecutionTokens)
  tokens(@Parent() e: Execution) {
    return { input: e.inputTokens, cacheRead: e.cacheReadTokens, cacheWrite: e.cacheWriteTokens, output: e.outputTokens, reasoning: e.reasoningTokens };
  }
}
