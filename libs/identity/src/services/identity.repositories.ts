import { TenantRepository, requireOrgId } from '#libs/database';
import { Injectable } from '@nestjs/common';
import { InjectEntityManager } from '@nestjs/typeorm';
import type { EntityManager } from 'typeorm';
import { ApiKeyEntity, InvitationEntity, MembershipEntity } from '../entities/index.js';

@Injectable()
export class MembershipRepository extends TenantRepository<MembershipEntity> {
  constructor(@InjectEntityManager() manager: EntityManager) {
    super(manager, MembershipEntity);
  }

  findByUser(orgId: string, userId: string, manager?: EntityManager): Promise<MembershipEntity | null> {
    return this.repo(manager).findOneBy(this.scoped(orgId, { userId }));
  }

  countOwners(orgId: string, manager?: EntityManager): Promise<number> {
    return this.repo(manager).countBy(this.scoped(orgId, { role: 'owner' as MembershipEntity['role'] }));
  }

  /** Locks the org's membership rows so two concurrent demotions cannot both pass the last-owner check. */
  async lockOrg(orgId: string, manager: EntityManager): Promise<void> {
    await manager.query('SELECT id FROM memberships WHERE org_id = $1 FOR UPDATE', [requireOrgId(orgId)]);
  }
}

@Injectable()
export class ApiKeyRepository extends TenantRepository<ApiKeyEntity> {
  constructor(@InjectEntityManager() manager: EntityManager) {
    super(manager, ApiKeyEntity);
  }
}

@Injectable()
export class InvitationRepository extends TenantRepository<InvitationEntity> {
  constructor(@InjectEntityManager() manager: EntityManager) {
    super(manager, InvitationEntity);
  }
}
