import { DomainException, ErrorCode, type Page, type PageArgs } from '#libs/common';
import { agentConfigFingerprint, type AgentConfigManifest } from '#libs/contracts';
import { isUuid, paginate, requireOrgId } from '#libs/database';
import { Role, requireRole, type Principal } from '#libs/identity';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { AgentConfigEntity, AgentConfigVersionEntity, OrgSecretEntity } from '../entities/index.js';

export interface RegisteredAgentConfig {
  version: AgentConfigVersionEntity;
  created: boolean;
  /** Secrets the config names that the org has not set yet. */
  missingSecrets: string[];
}

/** Agent configs: versioned like benchmarks; a changed manifest is version n + 1, the same one is a no-op. */
@Injectable()
export class AgentConfigService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async register(principal: Principal, manifest: AgentConfigManifest): Promise<RegisteredAgentConfig> {
    requireRole(principal, Role.MEMBER, 'createAgentConfig');
    const orgId = requireOrgId(principal.orgId);
    const fingerprint = agentConfigFingerprint(manifest);
    const result = await this.dataSource.transaction(async (tx) => {
      await tx.createQueryBuilder().insert().into(AgentConfigEntity).values({ id: randomUUID(), orgId, name: manifest.name }).orIgnore().execute();
      const config = await tx.getRepository(AgentConfigEntity).createQueryBuilder('c').setLock('pessimistic_write').where('c.orgId = :orgId AND c.name = :name', { orgId, name: manifest.name }).getOneOrFail();
      const versions = tx.getRepository(AgentConfigVersionEntity);
      const latest = await versions.findOne({ where: { agentConfigId: config.id }, order: { version: 'DESC' } });
      if (latest?.fingerprint === fingerprint) return { version: latest, created: false };
      const version = await versions.save(
        versions.create({
          id: randomUUID(),
          orgId,
          agentConfigId: config.id,
          name: manifest.name,
          version: (latest?.version ?? 0) + 1,
          fingerprint,
          scaffold: manifest.scaffold,
          model: manifest.model,
          manifest,
        }),
      );
      return { version, created: true };
    });
    const wanted = manifest.secrets ?? [];
    const present = wanted.length
      ? new Set((await this.dataSource.getRepository(OrgSecretEntity).findBy(wanted.map((name) => ({ orgId, name })))).map((s) => s.name))
      : new Set<string>();
    return { ...result, missingSecrets: wanted.filter((name) => !present.has(name)) };
  }

  list(principal: Principal, page: PageArgs, filter: { name?: string | null; latestOnly?: boolean | null } = {}): Promise<Page<AgentConfigVersionEntity>> {
    const qb = this.dataSource.getRepository(AgentConfigVersionEntity).createQueryBuilder('v').where('v.orgId = :orgId', { orgId: requireOrgId(principal.orgId) });
    if (filter.name) qb.andWhere('v.name = :name', { name: filter.name });
    if (filter.latestOnly !== false) {
      qb.andWhere('v.version = (SELECT MAX(l.version) FROM agent_config_versions l WHERE l.agent_config_id = v.agent_config_id)');
    }
    return paginate(qb, page);
  }

  async get(principal: Principal, id: string): Promise<AgentConfigVersionEntity> {
    const found = isUuid(id) ? await this.dataSource.getRepository(AgentConfigVersionEntity).findOneBy({ id, orgId: requireOrgId(principal.orgId) }) : null;
    if (!found) throw DomainException.notFound('agent config', id);
    return found;
  }

  /** The version a campaign pins: the given one, else the latest. `at` names the manifest field for errors. */
  async resolve(orgId: string, name: string, version: number | null | undefined, at: string): Promise<AgentConfigVersionEntity> {
    const versions = await this.dataSource.getRepository(AgentConfigVersionEntity).find({ where: { orgId: requireOrgId(orgId), name }, order: { version: 'DESC' } });
    if (versions.length === 0) {
      throw new DomainException(ErrorCode.NOT_FOUND, `${at}.config: no agent config "${name}" in your organization`, `${at}.config`);
    }
    if (version == null) return versions[0]!;
    const match = versions.find((v) => v.version === version);
    if (!match) throw DomainException.badInput(`${at}.version`, `one of ${versions.map((v) => v.version).join(', ')}`, version);
    return match;
  }
}
