import type { BenchmarkManifest } from '#libs/contracts';
import { Check, Column, JoinColumn, ManyToOne, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import { BenchmarkEntity } from './benchmark.entity.js';

/** One registered manifest of a benchmark. Immutable: a changed manifest is a new version. */
@Entity('benchmark_versions')
@Index('benchmark_versions_benchmark_version_key', ['benchmarkId', 'version'], { unique: true })
@Index('benchmark_versions_org_idx', ['orgId', 'createdAt'])
@Index('benchmark_versions_visibility_idx', ['visibility'])
@Check('benchmark_versions_visibility_check', `"visibility" IN ('public','private')`)
export class BenchmarkVersionEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'org_id' })
  orgId: string;

  @Column('uuid', { name: 'benchmark_id' })
  benchmarkId: string;

  @ManyToOne(() => BenchmarkEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'benchmark_id', foreignKeyConstraintName: 'benchmark_versions_benchmark_fk' })
  benchmark?: BenchmarkEntity;

  @Column('text')
  key: string;

  /** The manifest's version string. */
  @Column('text')
  version: string;

  /** Registration order within the benchmark (1, 2, ...): "latest" is the highest. */
  @Column('integer')
  seq: number;

  @Column('text')
  fingerprint: string;

  @Column('text')
  name: string;

  @Column('text', { nullable: true })
  description: string | null;

  @Column('text')
  visibility: 'public' | 'private';

  @Column('text', { name: 'success_rule' })
  successRule: 'taskPass' | 'testPassAboveZero';

  @Column('integer', { name: 'task_count' })
  taskCount: number;

  @Column('jsonb')
  manifest: BenchmarkManifest;

  /** Absolute folder the manifest's relative paths start from, on the machine that runs executions locally. */
  @Column('text', { name: 'source_dir', nullable: true })
  sourceDir: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;
}
