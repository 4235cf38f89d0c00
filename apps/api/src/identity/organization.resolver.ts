import { Role, OrganizationService, type Principal } from '#libs/identity';
import { Args, Context, ID, Mutation, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { CurrentPrincipal, RequireRole } from '../auth/auth.decorators.js';
import type { GraphqlContext } from '../graphql/loaders.js';
import { PageArgs, pagedComplexity } from '../graphql/page.args.js';
import { CreateOrganizationInput, InviteMemberInput, UpdateMemberRoleInput } from './inputs/identity.inputs.js';
import { Invitation, InvitationConnection, Member, MemberConnection, Organization, OrganizationConnection, User } from './models/identity.models.js';

@Resolver(() => Organization)
export class OrganizationResolver {
  constructor(private readonly orgs: OrganizationService) {}

  @Query(() => Organization, { description: 'An organization you belong to (an API key: its own). Others answer NOT_FOUND.' })
  organization(@CurrentPrincipal() principal: Principal, @Args('id', { type: () => ID }) id: string) {
    return this.orgs.getVisible(principal, id);
  }

  @Query(() => OrganizationConnection, { complexity: pagedComplexity })
  organizations(@CurrentPrincipal() principal: Principal, @Args() page: PageArgs) {
    return this.orgs.listVisible(principal, page);
  }

  @Mutation(() => Organization, { description: 'A new organization; you become its owner. Users only.' })
  createOrganization(@CurrentPrincipal() principal: Principal, @Args('input') input: CreateOrganizationInput) {
    return this.orgs.create(principal, input);
  }

  @RequireRole(Role.ADMIN)
  @Mutation(() => Invitation, { description: 'Adds an existing user to the current organization at once, or invites the email to join at sign-up.' })
  inviteMember(@CurrentPrincipal() principal: Principal, @Args('input') input: InviteMemberInput) {
    return this.orgs.invite(principal, input.email, input.role);
  }

  @RequireRole(Role.ADMIN)
  @Mutation(() => Member)
  updateMemberRole(@CurrentPrincipal() principal: Principal, @Args('input') input: UpdateMemberRoleInput) {
    return this.orgs.updateMemberRole(principal, input.userId, input.role);
  }

  @Mutation(() => Member, { description: 'Removes a member from the current organization (admins; anyone may remove themself).' })
  removeMember(@CurrentPrincipal() principal: Principal, @Args('userId', { type: () => ID }) userId: string) {
    return this.orgs.removeMember(principal, userId);
  }

  @ResolveField(() => MemberConnection, { complexity: pagedComplexity })
  members(@Parent() org: Organization, @CurrentPrincipal() principal: Principal, @Args() page: PageArgs) {
    return this.orgs.members(principal, org.id, page);
  }

  @ResolveField(() => InvitationConnection, { complexity: pagedComplexity, description: 'Open invitations (admins of the current organization).' })
  invitations(@Parent() org: Organization, @CurrentPrincipal() principal: Principal, @Args() page: PageArgs) {
    if (org.id !== principal.orgId) return { nodes: [], edges: [], pageInfo: { endCursor: null, hasNextPage: false }, totalCount: 0 };
    return this.orgs.pendingInvitations(principal, page);
  }

  @ResolveField(() => Role, { nullable: true, description: 'Your role in this organization.' })
  viewerRole(@Parent() org: Organization, @CurrentPrincipal() principal: Principal) {
    return this.orgs.roleIn(principal, org.id);
  }
}

@Resolver(() => Member)
export class MemberResolver {
  @ResolveField(() => User)
  user(@Parent() member: Member, @Context() ctx: GraphqlContext) {
    return ctx.loaders.user.load(member.userId);
  }
}
