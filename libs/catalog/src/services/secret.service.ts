import { DomainException } from '#libs/common';
import { requireOrgId } from '#libs/database';
import { Role, requireRole, type Principal } from '#libs/identity';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { In, type DataSource } from 'typeorm';
import { OrgSecretEntity } from '../entities/index.js';
import { SECRET_BOX, SecretBox } from './secret-box.js';

const NAME = /^[A-Z_][A-Z0-9_]{0,127}$/;

/** Org secrets (provider API keys) for agents: written and listed by name; values never leave except to a run. */
@Injectable()
export class SecretService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
  ) {}

  async set(principal: Principal, name: string, value: string): Promise<OrgSecretEntity> {
    requireRole(principal, Role.ADMIN, 'setSecret');
    if (!NAME.test(name)) throw DomainException.badInput('name', 'an environment variable name in capitals (A-Z, 0-9, _)', name);
    if (value.length === 0 || value.length > 16_384) throw DomainException.badInput('value', 'between 1 and 16384 characters');
    const orgId = requireOrgId(principal.orgId);
    const sealed = this.box.seal(value, orgId);
    await this.dataSource
      .createQueryBuilder()
      .insert()
      .into(OrgSecretEntity)
      .values({ id: randomUUID(), orgId, name, sealed })
      .orUpdate(['sealed', 'updated_at'], ['org_id', 'name'])
      .execute();
    return this.dataSource.getRepository(OrgSecretEntity).findOneByOrFail({ orgId, name });
  }

  list(principal: Principal): Promise<OrgSecretEntity[]> {
    return this.dataSource.getRepository(OrgSecretEntity).find({ where: { orgId: requireOrgId(principal.orgId) }, order: { name: 'ASC' } });
  }

  async delete(principal: Principal, name: string): Promise<boolean> {
    requireRole(principal, Role.ADMIN, 'deleteSecret');
    const result = await this.dataSource.getRepository(OrgSecretEntity).delete({ orgId: requireOrgId(principal.orgId), name });
    if (!result.affected) throw DomainException.notFound('secret', name);
    return true;
  }

  /** Plaintext values for a run of this org; missing names are simply absent. */
  async reveal(orgId: string, names: string[]): Promise<Record<string, string>> {
    if (names.length === 0) return {};
    const rows = await this.dataSource.getRepository(OrgSecretEntity).findBy({ orgId: requireOrgId(orgId), name: In(names) });
    return Object.fromEntries(rows.map((row) => [row.name, this.box.open(row.sealed, orgId)]));
  }
}
