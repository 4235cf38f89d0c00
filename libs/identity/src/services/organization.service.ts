import { Clock, DomainException, ErrorCode, type Page, type PageArgs } from '#libs/common';
import { isUuid, paginate } from '#libs/database';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomBytes, randomUUID } from 'node:crypto';
import { IsNull, type DataSource, type EntityManager } from 'typeorm';
import { InvitationEntity, MembershipEntity, OrganizationEntity, SessionEntity, UserEntity } from '../entities/index.js';
import type { Principal } from '../principal.js';
import { Role } from '../role.js';
import { normaliseEmail, requireRole, requireUser } from './access.js';
import { InvitationRepository, MembershipRepository } from './identity.repositories.js';

export const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/;

export interface CreateOrganizationInput {
  name: string;
  slug?: string | null;
}

@Injectable()
export class OrganizationService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly memberships: MembershipRepository,
    private readonly invitations: InvitationRepository,
    private readonly clock: Clock,
  ) {}

  async create(principal: Principal, input: CreateOrganizationInput): Promise<OrganizationEntity> {
    const userId = requireUser(principal, 'createOrganization');
    return this.dataSource.transaction((tx) => this.createOwned(tx, userId, input.name, input.slug ?? null, false));
  }

  /** For operators (`fanout org create`): an org owned by an existing user. */
  async createForUser(userId: string, name: string, slug: string | null): Promise<OrganizationEntity> {
    return this.dataSource.transaction((tx) => this.createOwned(tx, userId, name, slug, false));
  }

  createPersonal(tx: EntityManager, user: UserEntity): Promise<OrganizationEntity> {
    const base = slugify(user.email.split('@')[0] ?? 'team').slice(0, 30) || 'team';
    return this.createOwned(tx, user.id, `${user.name || base}'s workspace`, `${base}-${randomBytes(3).toString('hex')}`, true);
  }

  /** An org the caller belongs to (a user's membership, or an API key's own org); NOT_FOUND otherwise. */
  async getVisible(principal: Principal, id: string): Promise<OrganizationEntity> {
    const org = isUuid(id) ? await this.visibleQuery(principal).andWhere('org.id = :id', { id }).getOne() : null;
    if (!org) throw DomainException.notFound('organization', id);
    return org;
  }

  listVisible(principal: Principal, page: PageArgs): Promise<Page<OrganizationEntity>> {
    return paginate(this.visibleQuery(principal), page);
  }

  async roleIn(principal: Principal, orgId: string): Promise<Role | null> {
    if (principal.kind === 'api_key') return principal.orgId === orgId ? principal.role : null;
    const membership = await this.memberships.findByUser(orgId, principal.userId!);
    return membership?.role ?? null;
  }

  async members(principal: Principal, orgId: string, page: PageArgs): Promise<Page<MembershipEntity>> {
    await this.getVisible(principal, orgId);
    const qb = this.dataSource.getRepository(MembershipEntity).createQueryBuilder('m').where('m.orgId = :orgId', { orgId });
    return paginate(qb, page);
  }

  async pendingInvitations(principal: Principal, page: PageArgs): Promise<Page<InvitationEntity>> {
    requireRole(principal, Role.ADMIN, 'invitations');
    const qb = this.dataSource
      .getRepository(InvitationEntity)
      .createQueryBuilder('i')
      .where('i.orgId = :orgId AND i.acceptedAt IS NULL', { orgId: principal.orgId });
    return paginate(qb, page);
  }

  /**
   * Adds an existing user at once; otherwise records an invitation that
   * their sign-up claims. Only owners may invite owners.
   */
  async invite(principal: Principal, emailInput: string, role: Role): Promise<InvitationEntity> {
    requireRole(principal, Role.ADMIN, 'inviteMember');
    if (role === Role.OWNER) requireRole(principal, Role.OWNER, 'inviting an owner');
    const email = normaliseEmail(emailInput);
    const orgId = principal.orgId;
    return this.dataSource.transaction(async (tx) => {
      const user = await tx.getRepository(UserEntity).findOneBy({ email });
      if (user && (await this.memberships.findByUser(orgId, user.id, tx))) {
        throw new DomainException(ErrorCode.CONFLICT, `email: ${email} is already a member of this organization`, 'email');
      }
      const open = await tx.getRepository(InvitationEntity).findOneBy({ orgId, email, acceptedAt: IsNull() });
      if (open) throw new DomainException(ErrorCode.CONFLICT, `email: ${email} already has an open invitation`, 'email');
      const invitation = tx.getRepository(InvitationEntity).create({
        id: randomUUID(),
        orgId,
        email,
        role,
        invitedByUserId: principal.userId,
        acceptedAt: user ? this.clock.now() : null,
      });
      await tx.getRepository(InvitationEntity).save(invitation);
      if (user) await tx.getRepository(MembershipEntity).save({ id: randomUUID(), orgId, userId: user.id, role });
      return invitation;
    });
  }

  async updateMemberRole(principal: Principal, userId: string, role: Role): Promise<MembershipEntity> {
    requireRole(principal, Role.ADMIN, 'updateMemberRole');
    const orgId = principal.orgId;
    return this.dataSource.transaction(async (tx) => {
      await this.memberships.lockOrg(orgId, tx);
      const membership = await this.requireMember(orgId, userId, tx);
      if (membership.role === Role.OWNER || role === Role.OWNER) requireRole(principal, Role.OWNER, 'changing an owner');
      if (membership.role === Role.OWNER && role !== Role.OWNER) await this.keepAnOwner(orgId, tx);
      membership.role = role;
      return tx.getRepository(MembershipEntity).save(membership);
    });
  }

  /** Admins remove anyone but the last owner; anyone may leave. The removed user's sessions in the org end. */
  async removeMember(principal: Principal, userId: string): Promise<MembershipEntity> {
    if (principal.userId !== userId) requireRole(principal, Role.ADMIN, 'removeMember');
    const orgId = principal.orgId;
    return this.dataSource.transaction(async (tx) => {
      await this.memberships.lockOrg(orgId, tx);
      const membership = await this.requireMember(orgId, userId, tx);
      if (membership.role === Role.OWNER) {
        if (principal.userId !== userId) requireRole(principal, Role.OWNER, 'removing an owner');
        await this.keepAnOwner(orgId, tx);
      }
      await tx.getRepository(MembershipEntity).delete({ id: membership.id });
      await tx.getRepository(SessionEntity).update({ orgId, userId, revokedAt: IsNull() }, { revokedAt: this.clock.now() });
      return membership;
    });
  }

  private async requireMember(orgId: string, userId: string, tx: EntityManager): Promise<MembershipEntity> {
    const membership = isUuid(userId) ? await this.memberships.findByUser(orgId, userId, tx) : null;
    if (!membership) throw DomainException.notFound('member', userId);
    return membership;
  }

  private async keepAnOwner(orgId: string, tx: EntityManager): Promise<void> {
    if ((await this.memberships.countOwners(orgId, tx)) <= 1) {
      throw new DomainException(ErrorCode.CONFLICT, 'an organization must keep at least one owner; make someone else owner first');
    }
  }

  private visibleQuery(principal: Principal) {
    const qb = this.dataSource.getRepository(OrganizationEntity).createQueryBuilder('org');
    if (principal.kind === 'api_key') return qb.where('org.id = :keyOrg', { keyOrg: principal.orgId });
    return qb.innerJoin(MembershipEntity, 'vm', 'vm.org_id = org.id AND vm.user_id = :viewer', { viewer: principal.userId });
  }

  private async createOwned(tx: EntityManager, userId: string, name: string, slugInput: string | null, personal: boolean): Promise<OrganizationEntity> {
    const slug = slugInput ?? `${slugify(name).slice(0, 33) || 'org'}-${randomBytes(3).toString('hex')}`;
    if (!SLUG_PATTERN.test(slug)) {
      throw DomainException.badInput('slug', 'lower-case letters, digits and inner dashes, 1 to 40 characters', slug);
    }
    const orgs = tx.getRepository(OrganizationEntity);
    if (await orgs.existsBy({ slug })) throw new DomainException(ErrorCode.CONFLICT, `slug: "${slug}" is taken`, 'slug');
    const org = await orgs.save(orgs.create({ id: randomUUID(), slug, name: name.trim(), personal }));
    await tx.getRepository(MembershipEntity).save({ id: randomUUID(), orgId: org.id, userId, role: Role.OWNER });
    return org;
  }
}

export function slugify(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
