import { UsageService } from '#libs/metering';
import { Args, GraphQLISODateTime, ID, Query, Resolver } from '@nestjs/graphql';
import { CurrentOrg } from '../auth/auth.decorators.js';
import { UsageDimension, UsageRow } from './usage.models.js';

@Resolver(() => UsageRow)
export class UsageResolver {
  constructor(private readonly usageService: UsageService) {}

  @Query(() => [UsageRow], {
    complexity: 50,
    description: 'Your organization\'s usage from the ledger of model calls: tokens by kind, dollars, and cost per resolved execution, grouped as asked. Calls in [from, to).',
  })
  async usage(
    @CurrentOrg() orgId: string,
    @Args('groupBy', { type: () => [UsageDimension] }) groupBy: UsageDimension[],
    @Args('from', { type: () => GraphQLISODateTime, nullable: true }) from?: Date | null,
    @Args('to', { type: () => GraphQLISODateTime, nullable: true }) to?: Date | null,
    @Args('campaign', { type: () => ID, nullable: true }) campaign?: string | null,
  ): Promise<UsageRow[]> {
    const rows = await this.usageService.usage(orgId, { groupBy, from: from ?? null, to: to ?? null, campaignId: campaign ?? null });
    return rows.map((r) => ({
      campaignId: r.campaignId,
      campaignName: r.campaignName,
      agent: r.agent,
      model: r.model,
      mode: r.mode,
      day: r.day,
      calls: r.calls,
      executions: r.executions,
      tokens: { ...r.tokens, total: r.tokens.uncachedInput + r.tokens.cacheRead + r.tokens.cacheWrite + r.tokens.output },
      costUsd: r.costMicros / 1e6,
      unpricedCalls: r.unpricedCalls,
      resolved: r.resolved,
      costPerResolvedUsd: r.resolved ? r.costMicros / r.resolved / 1e6 : null,
    }));
  }
}
