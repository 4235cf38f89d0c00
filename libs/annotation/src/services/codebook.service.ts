import { DomainException, ErrorCode } from '#libs/common';
import { isUuid, requireOrgId } from '#libs/database';
import { Role, requireRole, type Principal } from '#libs/identity';
import type { CodebookPattern } from '#libs/metrics';
import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { CodebookEntity, CodebookVersionEntity, type CodebookNode } from '../entities/codebook.entity.js';
import { NO_FAILURE, STARTER_CODEBOOK_ID, STARTER_CODEBOOK_VERSION_ID, STARTER_NODES } from '../starter-codebook.js';

const KEY = /^[a-z][a-z0-9_]{0,63}$/;
const LEVEL_PARENT: Record<CodebookNode['level'], CodebookNode['level'] | null> = { category: null, subcategory: 'category', pattern: 'subcategory' };

/**
 * Checks a codebook's nodes: stable keys, three levels, each node under a
 * node of the level above, the explicit "no failure" pattern present.
 * Errors name the node's index and field.
 */
export function validateNodes(input: unknown): CodebookNode[] {
  if (!Array.isArray(input) || input.length === 0 || input.length > 1_000) throw DomainException.badInput('nodes', 'a list of 1 to 1000 codebook nodes', input);
  const nodes: CodebookNode[] = [];
  const byKey = new Map<string, CodebookNode>();
  input.forEach((raw, i) => {
    const field = (name: string) => `nodes[${i}].${name}`;
    if (!raw || typeof raw !== 'object') throw DomainException.badInput(`nodes[${i}]`, 'an object', raw);
    const n = raw as Record<string, unknown>;
    if (typeof n.key !== 'string' || !KEY.test(n.key)) throw DomainException.badInput(field('key'), 'a key of lower-case letters, digits and _ (starting with a letter, at most 64)', n.key);
    if (n.level !== 'category' && n.level !== 'subcategory' && n.level !== 'pattern') throw DomainException.badInput(field('level'), 'category, subcategory or pattern', n.level);
    if (typeof n.label !== 'string' || n.label.trim() === '' || n.label.length > 200) throw DomainException.badInput(field('label'), 'a label of 1 to 200 characters', n.label);
    if (typeof n.definition !== 'string' || n.definition.length > 5_000) throw DomainException.badInput(field('definition'), 'a definition of at most 5000 characters', n.definition);
    const examples = n.examples ?? [];
    if (!Array.isArray(examples) || examples.some((e) => typeof e !== 'string' || e.length > 2_000) || examples.length > 50) {
      throw DomainException.badInput(field('examples'), 'at most 50 example strings of at most 2000 characters', examples);
    }
    const parentKey = n.parentKey ?? null;
    const key = `${n.level}:${n.key}`;
    if (byKey.has(key)) throw DomainException.badInput(field('key'), `a key not used by another ${n.level}`, n.key);
    const parentLevel = LEVEL_PARENT[n.level];
    if (parentLevel === null ? parentKey !== null : typeof parentKey !== 'string' || !byKey.has(`${parentLevel}:${parentKey}`)) {
      throw DomainException.badInput(field('parentKey'), parentLevel === null ? 'null for a category' : `the key of a ${parentLevel} listed before it`, parentKey);
    }
    const clean: CodebookNode = { key: n.key, level: n.level, parentKey: parentKey as string | null, label: n.label.trim(), definition: n.definition, examples: examples as string[] };
    byKey.set(key, clean);
    nodes.push(clean);
  });
  if (!byKey.has(`pattern:${NO_FAILURE}`)) throw DomainException.badInput('nodes', `a pattern "${NO_FAILURE}" (the explicit "no failure" choice)`);
  return nodes;
}

/** The patterns of a codebook with their subcategory and category: what libs/metrics takes. */
export function codebookPatterns(nodes: readonly CodebookNode[]): CodebookPattern[] {
  const subcategory = new Map(nodes.filter((n) => n.level === 'subcategory').map((n) => [n.key, n]));
  return nodes
    .filter((n) => n.level === 'pattern')
    .map((n) => ({ pattern: n.key, subcategory: n.parentKey!, category: subcategory.get(n.parentKey!)!.parentKey! }));
}

/**
 * Codebooks: the built-in starter (shared, read-only) and each org's own,
 * versioned. A version is a draft until published, then immutable.
 */
@Injectable()
export class CodebookService implements OnApplicationBootstrap {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Seeds the built-in starter codebook once (fixed ids: a no-op afterwards). */
  async onApplicationBootstrap(): Promise<void> {
    await this.dataSource.query(`INSERT INTO codebooks (id, org_id, key, name, description) VALUES ($1, NULL, 'study-starter', $2, $3) ON CONFLICT (id) DO NOTHING`, [
      STARTER_CODEBOOK_ID,
      'Concurrency failures (starter)',
      "The study's four categories and the patterns it names, as a starting point: create your own codebook from it and extend it.",
    ]);
    await this.dataSource.query(
      `INSERT INTO codebook_versions (id, codebook_id, org_id, version, status, nodes, key_map, published_at) VALUES ($1, $2, NULL, 1, 'published', $3, NULL, now())
       ON CONFLICT (id) DO NOTHING`,
      [STARTER_CODEBOOK_VERSION_ID, STARTER_CODEBOOK_ID, JSON.stringify(STARTER_NODES)],
    );
  }

  /** The built-in codebooks and the caller's org's. */
  async list(principal: Principal): Promise<(CodebookEntity & { versions: CodebookVersionEntity[] })[]> {
    const orgId = requireOrgId(principal.orgId);
    const books = await this.dataSource
      .getRepository(CodebookEntity)
      .createQueryBuilder('c')
      .where('c.orgId IS NULL OR c.orgId = :orgId', { orgId })
      .orderBy('c.orgId', 'ASC', 'NULLS FIRST')
      .addOrderBy('c.createdAt')
      .getMany();
    const versions = books.length
      ? await this.dataSource.getRepository(CodebookVersionEntity).createQueryBuilder('v').where('v.codebookId IN (:...ids)', { ids: books.map((b) => b.id) }).orderBy('v.version').getMany()
      : [];
    return books.map((b) => ({ ...b, versions: versions.filter((v) => v.codebookId === b.id) }));
  }

  /** A version the caller may use: built in, or its own org's. */
  async getVersion(principal: Principal, id: string, tx: EntityManager = this.dataSource.manager): Promise<CodebookVersionEntity> {
    const orgId = requireOrgId(principal.orgId);
    const version = isUuid(id) ? await tx.getRepository(CodebookVersionEntity).findOneBy({ id }) : null;
    if (!version || (version.orgId !== null && version.orgId !== orgId)) throw DomainException.notFound('codebook version', id);
    return version;
  }

  /** A new codebook of the org, with its first version as a draft. */
  async create(principal: Principal, input: { key: string; name: string; description?: string | null; nodes: unknown }): Promise<CodebookVersionEntity> {
    requireRole(principal, Role.ADMIN, 'createCodebook');
    const orgId = requireOrgId(principal.orgId);
    if (typeof input.key !== 'string' || !/^[a-z0-9][a-z0-9-]{0,63}$/.test(input.key)) throw DomainException.badInput('key', 'lower-case letters, digits and - (at most 64)', input.key);
    if (typeof input.name !== 'string' || input.name.trim() === '' || input.name.length > 200) throw DomainException.badInput('name', 'a name of 1 to 200 characters', input.name);
    const nodes = validateNodes(input.nodes);
    return this.dataSource.transaction(async (tx) => {
      const clash = await tx.getRepository(CodebookEntity).findOneBy({ orgId, key: input.key });
      if (clash) throw new DomainException(ErrorCode.CONFLICT, `key: the organization already has a codebook "${input.key}"`, 'key');
      const codebook = { id: randomUUID(), orgId, key: input.key, name: input.name.trim(), description: input.description ?? null };
      await tx.getRepository(CodebookEntity).insert(codebook);
      const version = { id: randomUUID(), codebookId: codebook.id, orgId, version: 1, status: 'draft' as const, nodes, keyMap: null, publishedAt: null };
      await tx.getRepository(CodebookVersionEntity).insert(version);
      return tx.getRepository(CodebookVersionEntity).findOneByOrFail({ id: version.id });
    });
  }

  /** The next version of an org codebook, as a draft; `keyMap` maps the previous version's pattern keys to this one's. */
  async createVersion(principal: Principal, codebookId: string, input: { nodes: unknown; keyMap?: Record<string, string> | null }): Promise<CodebookVersionEntity> {
    requireRole(principal, Role.ADMIN, 'createCodebookVersion');
    const orgId = requireOrgId(principal.orgId);
    const nodes = validateNodes(input.nodes);
    return this.dataSource.transaction(async (tx) => {
      const codebook = isUuid(codebookId) ? await tx.getRepository(CodebookEntity).findOneBy({ id: codebookId, orgId }) : null;
      if (!codebook) throw DomainException.notFound('codebook', codebookId);
      const [last] = await tx.query('SELECT id, version, status, nodes FROM codebook_versions WHERE codebook_id = $1 ORDER BY version DESC LIMIT 1 FOR UPDATE', [codebookId]);
      if (last.status === 'draft') throw new DomainException(ErrorCode.CONFLICT, `version ${last.version} is still a draft: edit or publish it first`);
      const keyMap = this.checkKeyMap(input.keyMap ?? null, last.nodes, nodes);
      const version = { id: randomUUID(), codebookId, orgId, version: last.version + 1, status: 'draft' as const, nodes, keyMap, publishedAt: null };
      await tx.getRepository(CodebookVersionEntity).insert(version);
      return tx.getRepository(CodebookVersionEntity).findOneByOrFail({ id: version.id });
    });
  }

  /** Edits a draft. A published version never changes. */
  async updateDraft(principal: Principal, versionId: string, input: { nodes: unknown; keyMap?: Record<string, string> | null }): Promise<CodebookVersionEntity> {
    requireRole(principal, Role.ADMIN, 'updateCodebookVersion');
    const nodes = validateNodes(input.nodes);
    return this.dataSource.transaction(async (tx) => {
      const version = await this.getVersion(principal, versionId, tx);
      if (version.orgId === null || version.status !== 'draft') {
        throw new DomainException(ErrorCode.CONFLICT, `codebook version ${versionId} is published (or built in) and cannot change; create a new version`);
      }
      const [previous] = await tx.query('SELECT nodes FROM codebook_versions WHERE codebook_id = $1 AND version = $2', [version.codebookId, version.version - 1]);
      const keyMap = previous ? this.checkKeyMap(input.keyMap ?? null, previous.nodes, nodes) : null;
      await tx.query(`UPDATE codebook_versions SET nodes = $2, key_map = $3 WHERE id = $1 AND status = 'draft'`, [versionId, JSON.stringify(nodes), keyMap === null ? null : JSON.stringify(keyMap)]);
      return tx.getRepository(CodebookVersionEntity).findOneByOrFail({ id: versionId });
    });
  }

  async publish(principal: Principal, versionId: string): Promise<CodebookVersionEntity> {
    requireRole(principal, Role.ADMIN, 'publishCodebookVersion');
    const version = await this.getVersion(principal, versionId);
    if (version.orgId === null) throw new DomainException(ErrorCode.CONFLICT, 'the built-in codebook is already published');
    await this.dataSource.query(`UPDATE codebook_versions SET status = 'published', published_at = now() WHERE id = $1 AND status = 'draft'`, [versionId]);
    return this.dataSource.getRepository(CodebookVersionEntity).findOneByOrFail({ id: versionId });
  }

  private checkKeyMap(keyMap: Record<string, string> | null, previous: CodebookNode[], next: CodebookNode[]): Record<string, string> | null {
    if (keyMap === null) return null;
    if (typeof keyMap !== 'object' || Array.isArray(keyMap)) throw DomainException.badInput('keyMap', 'an object mapping old pattern keys to new ones', keyMap);
    const old = new Set(previous.filter((n) => n.level === 'pattern').map((n) => n.key));
    const now = new Set(next.filter((n) => n.level === 'pattern').map((n) => n.key));
    for (const [from, to] of Object.entries(keyMap)) {
      if (!old.has(from)) throw DomainException.badInput(`keyMap.${from}`, 'a pattern key of the previous version', from);
      if (typeof to !== 'string' || !now.has(to)) throw DomainException.badInput(`keyMap.${from}`, 'a pattern key of this version', to);
    }
    return keyMap;
  }
}
