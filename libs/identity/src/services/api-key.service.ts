import { Clock, DomainException, ErrorCode, type Page, type PageArgs } from '#libs/common';
import { paginate } from '#libs/database';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID, timingSafeEqual } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { ApiKeyEntity } from '../entities/index.js';
import type { Principal } from '../principal.js';
import { Role, roleAtLeast } from '../role.js';
import { requireRole } from './access.js';
import { generateApiKey, hashApiKey, parseApiKey } from './api-key.codec.js';
import { ApiKeyRepository } from './identity.repositories.js';

export interface CreateApiKeyInput {
  name: string;
  role: Role;
  expiresAt?: Date | null;
}

export interface CreatedApiKey {
  apiKey: ApiKeyEntity;
  /** The whole key; returned once and never again. */
  token: string;
}

/** last_used_at is written at most this often per key, not on every request. */
const LAST_USED_GRANULARITY_MS = 60_000;

@Injectable()
export class ApiKeyService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly keys: ApiKeyRepository,
    private readonly clock: Clock,
  ) {}

  async create(principal: Principal, input: CreateApiKeyInput): Promise<CreatedApiKey> {
    requireRole(principal, Role.ADMIN, 'createApiKey');
    return this.insert(principal.orgId, principal.role, principal.userId, input);
  }

  /** For operators (`fanout keys create` on the local database): no caller role to respect. */
  createForOrg(orgId: string, input: CreateApiKeyInput): Promise<CreatedApiKey> {
    return this.insert(orgId, Role.OWNER, null, input);
  }

  list(principal: Principal, page: PageArgs): Promise<Page<ApiKeyEntity>> {
    requireRole(principal, Role.ADMIN, 'apiKeys');
    const qb = this.dataSource.getRepository(ApiKeyEntity).createQueryBuilder('k').where('k.orgId = :orgId', { orgId: principal.orgId });
    return paginate(qb, page);
  }

  /** The key a principal authenticated with. */
  async getOwn(principal: Principal): Promise<ApiKeyEntity | null> {
    return principal.apiKeyId ? this.keys.findById(principal.orgId, principal.apiKeyId) : null;
  }

  /** Idempotent: revoking a revoked key answers the key as it is. */
  async revoke(principal: Principal, id: string): Promise<ApiKeyEntity> {
    requireRole(principal, Role.ADMIN, 'revokeApiKey');
    const key = await this.keys.getById(principal.orgId, id, 'API key');
    if (!key.revokedAt) {
      key.revokedAt = this.clock.now();
      await this.dataSource.getRepository(ApiKeyEntity).update({ id: key.id, orgId: principal.orgId }, { revokedAt: key.revokedAt });
    }
    return key;
  }

  /** Null for anything that is not a live key: malformed, unknown, wrong secret, revoked or expired. */
  async authenticate(token: string): Promise<Principal | null> {
    const parsed = parseApiKey(token);
    if (!parsed) return null;
    // Looked up by its public prefix across tenants: this is how the tenant is learned.
    const key = await this.dataSource.getRepository(ApiKeyEntity).findOneBy({ prefix: parsed.prefix });
    if (!key) return null;
    const hash = hashApiKey(token);
    if (!timingSafeEqual(hash, key.secretHash)) return null;
    const now = this.clock.now();
    if (key.revokedAt || (key.expiresAt && key.expiresAt <= now)) return null;
    if (!key.lastUsedAt || now.getTime() - key.lastUsedAt.getTime() > LAST_USED_GRANULARITY_MS) {
      await this.dataSource.query(
        `UPDATE api_keys SET last_used_at = $2 WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < $3)`,
        [key.id, now, new Date(now.getTime() - LAST_USED_GRANULARITY_MS)],
      );
    }
    return { kind: 'api_key', orgId: key.orgId, role: key.role, userId: null, apiKeyId: key.id, sessionId: null, platformAdmin: false };
  }

  private async insert(orgId: string, callerRole: Role, userId: string | null, input: CreateApiKeyInput): Promise<CreatedApiKey> {
    if (!roleAtLeast(callerRole, input.role)) {
      throw new DomainException(ErrorCode.FORBIDDEN, `role: a key cannot have a role (${input.role}) above its creator's (${callerRole})`, 'role');
    }
    if (input.expiresAt && input.expiresAt <= this.clock.now()) {
      throw DomainException.badInput('expiresAt', 'a time in the future', input.expiresAt.toISOString());
    }
    const { token, prefix, secretHash } = generateApiKey();
    const repo = this.dataSource.getRepository(ApiKeyEntity);
    const apiKey = await repo.save(
      repo.create({
        id: randomUUID(),
        orgId,
        name: input.name.trim(),
        prefix,
        secretHash,
        role: input.role,
        createdByUserId: userId,
        expiresAt: input.expiresAt ?? null,
        lastUsedAt: null,
        revokedAt: null,
      }),
    );
    return { apiKey, token };
  }
}
