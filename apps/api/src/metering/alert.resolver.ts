import type { Page } from '#libs/common';
import { AlertQueryService, type AlertView } from '#libs/metering';
import { Args, ID, Query, Resolver } from '@nestjs/graphql';
import { CurrentOrg } from '../auth/auth.decorators.js';
import { PageArgs, pagedComplexity } from '../graphql/page.args.js';
import { AlertScope, AlertWebhookStatus, BudgetAlert, BudgetAlertConnection } from './alert.models.js';

function alertView(a: AlertView): BudgetAlert {
  return {
    id: a.id,
    scope: a.scope as AlertScope,
    campaignId: a.campaignId,
    campaignName: a.campaignName,
    period: a.period,
    threshold: a.threshold,
    spentUsd: a.spentMicros / 1e6,
    capUsd: a.capMicros / 1e6,
    createdAt: a.createdAt,
    webhookStatus: a.webhookStatus as AlertWebhookStatus,
    webhookAttempts: a.webhookAttempts,
    webhookLastError: a.webhookLastError,
  };
}

@Resolver(() => BudgetAlert)
export class BudgetAlertResolver {
  constructor(private readonly alertQueries: AlertQueryService) {}

  @Query(() => BudgetAlertConnection, { complexity: pagedComplexity, description: 'Budget alerts of your organization, newest first.' })
  async alerts(
    @CurrentOrg() orgId: string,
    @Args() page: PageArgs,
    @Args('campaign', { type: () => ID, nullable: true, description: 'Only this campaign\'s alerts.' }) campaign?: string | null,
  ): Promise<Page<BudgetAlert>> {
    const result = await this.alertQueries.list(orgId, { first: page.first, after: page.after, campaignId: campaign ?? null });
    const nodes = result.nodes.map(alertView);
    return { ...result, nodes, edges: result.edges.map((e, i) => ({ cursor: e.cursor, node: nodes[i]! })) };
  }
}
