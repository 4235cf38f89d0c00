import { CampaignService } from '#libs/campaigns';
import { Role, type Principal } from '#libs/identity';
import { Args, Field, Float, ID, InputType, Mutation, ObjectType, Query, Resolver } from '@nestjs/graphql';
import { IsOptional } from 'class-validator';
import { CurrentPrincipal, RequireRole } from '../auth/auth.decorators.js';
import { Campaign } from './campaign.models.js';

@InputType()
export class OrganizationBudgetInput {
  @Field(() => Float, { nullable: true, description: "Cap on the org's spend per calendar month (UTC), dollars; null removes it. Omit to keep." })
  @IsOptional()
  monthlyBudgetUsd?: number | null;

  @Field(() => String, { nullable: true, description: 'http(s) URL that budget alerts (50 / 80 / 100 %) are POSTed to; null removes it. Omit to keep.' })
  @IsOptional()
  alertWebhookUrl?: string | null;
}

@ObjectType()
export class OrganizationBudget {
  @Field(() => Float, { nullable: true }) monthlyBudgetUsd: number | null;
  @Field(() => String, { nullable: true }) alertWebhookUrl: string | null;
  @Field(() => Float, { description: 'Spend of the current month.' }) spentThisMonthUsd: number;
  @Field(() => Float, { description: 'What in-flight work spent past the monthly cap (0 when within it).' }) overrunUsd: number;
  @Field(() => [ID], { description: 'Campaigns resumed because the cap now has room.' }) resumedCampaigns: string[];
}

/** Budget caps: a campaign's, and its org's per month. Reaching one stops dispatch and cancels what runs; raising it resumes. */
@Resolver()
export class BudgetResolver {
  constructor(private readonly campaigns: CampaignService) {}

  @RequireRole(Role.VIEWER)
  @Query(() => OrganizationBudget, { description: "Your organization's monthly cap, alert webhook and this month's spend." })
  async organizationBudget(@CurrentPrincipal() principal: Principal): Promise<OrganizationBudget> {
    const b = await this.campaigns.organizationBudget(principal);
    return {
      monthlyBudgetUsd: b.monthlyBudgetMicros === null ? null : b.monthlyBudgetMicros / 1e6,
      alertWebhookUrl: b.alertWebhookUrl,
      spentThisMonthUsd: b.spentMicros / 1e6,
      overrunUsd: b.monthlyBudgetMicros === null ? 0 : Math.max(0, b.spentMicros - b.monthlyBudgetMicros) / 1e6,
      resumedCampaigns: [],
    };
  }

  @RequireRole(Role.MEMBER)
  @Mutation(() => Campaign, { description: "Sets a campaign's cap. Raising it above the spend resumes a campaign the cap paused and requeues what it cancelled." })
  updateCampaignBudget(@CurrentPrincipal() principal: Principal, @Args('id', { type: () => ID }) id: string, @Args('budgetUsd', { type: () => Float }) budgetUsd: number) {
    return this.campaigns.updateBudget(principal, id, budgetUsd);
  }

  @RequireRole(Role.ADMIN)
  @Mutation(() => OrganizationBudget, { description: "Sets the org's monthly cap and alert webhook. Raising the cap resumes the campaigns it paused." })
  async updateOrganizationBudget(@CurrentPrincipal() principal: Principal, @Args('input') input: OrganizationBudgetInput): Promise<OrganizationBudget> {
    const result = await this.campaigns.updateOrganizationBudget(principal, input);
    return {
      monthlyBudgetUsd: result.monthlyBudgetMicros === null ? null : result.monthlyBudgetMicros / 1e6,
      alertWebhookUrl: result.alertWebhookUrl,
      spentThisMonthUsd: result.spentMicros / 1e6,
      overrunUsd: result.monthlyBudgetMicros === null ? 0 : Math.max(0, result.spentMicros - result.monthlyBudgetMicros) / 1e6,
      resumedCampaigns: result.resumedCampaigns,
    };
  }
}
