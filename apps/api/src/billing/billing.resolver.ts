import { BillingStatusService } from '#libs/billing';
import type { Principal } from '#libs/identity';
import { Parent, ResolveField, Resolver } from '@nestjs/graphql';
import { CurrentPrincipal } from '../auth/auth.decorators.js';
import { Organization } from '../identity/models/identity.models.js';
import { BillingStatusModel } from './billing.models.js';

@Resolver(() => Organization)
export class OrganizationBillingResolver {
  constructor(private readonly statuses: BillingStatusService) {}

  @ResolveField(() => BillingStatusModel, { nullable: true, description: 'Billing state; only on the organization of your credential (null on others).' })
  billing(@Parent() org: Organization, @CurrentPrincipal() principal: Principal) {
    if (org.id !== principal.orgId) return null;
    return this.statuses.status(org.id);
  }
}
