import { DomainException, ErrorCode } from '#libs/common';
import type { EntityManager, EntityTarget, FindOptionsWhere, ObjectLiteral, Repository } from 'typeorm';

/**
 * Refuses a missing org id. TypeORM drops `undefined` from a WHERE clause,
 * so `{ orgId: undefined }` would silently match every tenant's rows.
 */
export function requireOrgId(orgId: string | null | undefined): string {
  if (typeof orgId !== 'string' || orgId.length === 0) {
    throw new DomainException(ErrorCode.INTERNAL, 'tenant query without an org id');
  }
  return orgId;
}

/**
 * The only way to tenant-owned rows: every method takes the org id first and
 * scopes the query by it. Domain services extend this per entity.
 */
export abstract class TenantRepository<T extends ObjectLiteral & { orgId: string; id: string }> {
  protected constructor(
    protected readonly manager: EntityManager,
    private readonly target: EntityTarget<T>,
  ) {}

  protected repo(manager: EntityManager = this.manager): Repository<T> {
    return manager.getRepository(this.target);
  }

  protected scoped(orgId: string, where: FindOptionsWhere<T> = {}): FindOptionsWhere<T> {
    return { ...where, orgId: requireOrgId(orgId) } as FindOptionsWhere<T>;
  }

  findById(orgId: string, id: string, manager?: EntityManager): Promise<T | null> {
    if (!isUuid(id)) return Promise.resolve(null);
    return this.repo(manager).findOneBy(this.scoped(orgId, { id } as FindOptionsWhere<T>));
  }

  /** Same answer for a missing row and another tenant's row. */
  async getById(orgId: string, id: string, what: string, manager?: EntityManager): Promise<T> {
    const row = await this.findById(orgId, id, manager);
    if (!row) throw DomainException.notFound(what, id);
    return row;
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
