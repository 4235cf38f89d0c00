import { DomainException, ErrorCode, type Page, type PageArgs } from '#libs/common';
import { benchmarkFingerprint, type BenchmarkManifest } from '#libs/contracts';
import { isUuid, paginate, requireOrgId } from '#libs/database';
import { Role, requireRole, type Principal } from '#libs/identity';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import type { DataSource, EntityManager, SelectQueryBuilder } from 'typeorm';
import { BenchmarkEntity, BenchmarkVersionEntity, TaskEntity, type Difficulty } from '../entities/index.js';

export interface RegisteredBenchmark {
  version: BenchmarkVersionEntity;
  /** False when the same content was already registered (a no-op). */
  created: boolean;
}

export interface GroupSize {
  difficulty: Difficulty;
  count: number;
}

/**
 * Benchmarks from manifests. A version is immutable: registering the same
 * manifest again is a no-op, changed content needs a new version string.
 * Public versions are visible to every org; private ones to their owner.
 */
@Injectable()
export class BenchmarkService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** `sourceDir`: the folder the manifest's relative paths start from, when runs are local. */
  async register(principal: Principal, manifest: BenchmarkManifest, sourceDir: string | null = null): Promise<RegisteredBenchmark> {
    requireRole(principal, Role.MEMBER, 'registerBenchmark');
    const orgId = requireOrgId(principal.orgId);
    const fingerprint = benchmarkFingerprint(manifest);
    return this.dataSource.transaction(async (tx) => {
      await tx.createQueryBuilder().insert().into(BenchmarkEntity).values({ id: randomUUID(), orgId, key: manifest.id }).orIgnore().execute();
      // Lock the benchmark row: concurrent registrations of one benchmark take turns for `seq`.
      const benchmark = await tx.getRepository(BenchmarkEntity).createQueryBuilder('b').setLock('pessimistic_write').where('b.orgId = :orgId AND b.key = :key', { orgId, key: manifest.id }).getOneOrFail();
      const versions = tx.getRepository(BenchmarkVersionEntity);
      const existing = await versions.findOneBy({ benchmarkId: benchmark.id, version: manifest.version });
      if (existing) {
        if (existing.fingerprint === fingerprint) return { version: existing, created: false };
        throw new DomainException(
          ErrorCode.CONFLICT,
          `version: ${manifest.id} ${manifest.version} is already registered with different content; give the changed manifest a new version`,
          'version',
        );
      }
      const { max } = (await versions.createQueryBuilder('v').select('COALESCE(MAX(v.seq), 0)', 'max').where('v.benchmarkId = :id', { id: benchmark.id }).getRawOne<{ max: number }>())!;
      const tasks = manifest.suites.flatMap((suite) => suite.tasks.map((task) => ({ suite, task })));
      const version = await versions.save(
        versions.create({
          id: randomUUID(),
          orgId,
          benchmarkId: benchmark.id,
          key: manifest.id,
          version: manifest.version,
          seq: Number(max) + 1,
          fingerprint,
          name: manifest.name,
          description: manifest.description ?? null,
          visibility: manifest.visibility,
          successRule: manifest.success,
          taskCount: tasks.length,
          manifest,
          sourceDir,
        }),
      );
      await this.insertTasks(tx, orgId, version.id, tasks);
      return { version, created: true };
    });
  }

  listVisible(principal: Principal, page: PageArgs, filter: { key?: string | null } = {}): Promise<Page<BenchmarkVersionEntity>> {
    const qb = this.visible(principal.orgId);
    if (filter.key) qb.andWhere('v.key = :key', { key: filter.key });
    return paginate(qb, page);
  }

  async getVisible(principal: Principal, id: string): Promise<BenchmarkVersionEntity> {
    const found = isUuid(id) ? await this.visible(principal.orgId).andWhere('v.id = :id', { id }).getOne() : null;
    if (!found) throw DomainException.notFound('benchmark', id);
    return found;
  }

  /**
   * The version a campaign pins: the org's own benchmark of that id first,
   * else a public one; the given version string, else the latest.
   */
  async resolve(orgId: string, key: string, version: string | null | undefined, at: string): Promise<BenchmarkVersionEntity> {
    const candidates = await this.visible(orgId).andWhere('v.key = :key', { key }).orderBy('v.seq', 'DESC').getMany();
    if (candidates.length === 0) {
      // NOT_FOUND, as for an id: another org's private benchmark and a missing one answer alike.
      throw new DomainException(ErrorCode.NOT_FOUND, `${at}.id: no benchmark "${key}" registered by your organization or public`, `${at}.id`);
    }
    const own = candidates.filter((v) => v.orgId === orgId);
    const pool = own.length > 0 ? own : candidates;
    const owners = new Set(pool.map((v) => v.orgId));
    if (owners.size > 1) {
      throw new DomainException(ErrorCode.CONFLICT, `${at}.id: several public benchmarks are named "${key}"; register your own copy to pin one`, `${at}.id`);
    }
    if (version == null) return pool[0]!;
    const match = pool.find((v) => v.version === version);
    if (!match) throw DomainException.badInput(`${at}.version`, `one of ${pool.map((v) => v.version).join(', ')}`, version);
    return match;
  }

  groupSizes(versionId: string, suite?: string | null): Promise<GroupSize[]> {
    const qb = this.dataSource
      .getRepository(TaskEntity)
      .createQueryBuilder('t')
      .select('t.difficulty', 'difficulty')
      .addSelect('COUNT(*)::int', 'count')
      .where('t.benchmarkVersionId = :versionId', { versionId })
      .groupBy('t.difficulty')
      .orderBy(`array_position(ARRAY['easy','medium','hard'], t.difficulty)`);
    if (suite) qb.andWhere('t.suiteKey = :suite', { suite });
    return qb.getRawMany<GroupSize>();
  }

  tasks(versionId: string, filter: { suite?: string | null; difficulty?: Difficulty | null } = {}): Promise<TaskEntity[]> {
    const qb = this.dataSource.getRepository(TaskEntity).createQueryBuilder('t').where('t.benchmarkVersionId = :versionId', { versionId }).orderBy('t.ordinal');
    if (filter.suite) qb.andWhere('t.suiteKey = :suite', { suite: filter.suite });
    if (filter.difficulty) qb.andWhere('t.difficulty = :difficulty', { difficulty: filter.difficulty });
    return qb.getMany();
  }

  private visible(orgId: string): SelectQueryBuilder<BenchmarkVersionEntity> {
    return this.dataSource
      .getRepository(BenchmarkVersionEntity)
      .createQueryBuilder('v')
      .where(`(v.orgId = :viewerOrg OR v.visibility = 'public')`, { viewerOrg: requireOrgId(orgId) });
  }

  private async insertTasks(tx: EntityManager, orgId: string, versionId: string, tasks: { suite: BenchmarkManifest['suites'][number]; task: BenchmarkManifest['suites'][number]['tasks'][number] }[]): Promise<void> {
    const rows = tasks.map(({ suite, task }, ordinal) => ({
      id: randomUUID(),
      orgId,
      benchmarkVersionId: versionId,
      suiteKey: suite.id,
      taskKey: task.id,
      difficulty: task.difficulty,
      referenceKloc: task.referenceKloc ?? null,
      timeBudgetMinutes: task.timeBudgetMinutes,
      expectedTokens: task.expectedTokens ?? null,
      ordinal,
    }));
    for (let i = 0; i < rows.length; i += 1000) await tx.getRepository(TaskEntity).insert(rows.slice(i, i + 1000));
  }
}
