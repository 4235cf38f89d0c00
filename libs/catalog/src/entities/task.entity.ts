import { bigintNumber } from '#libs/database';
import { Check, Column, JoinColumn, ManyToOne, Entity, Index, PrimaryColumn } from 'typeorm';
import { BenchmarkVersionEntity } from './benchmark-version.entity.js';

export type Difficulty = 'easy' | 'medium' | 'hard';

/** A task of one benchmark version (copied out of the manifest so campaigns can sample and join it). */
@Entity('tasks')
@Index('tasks_version_task_key', ['benchmarkVersionId', 'taskKey'], { unique: true })
@Check('tasks_difficulty_check', `"difficulty" IN ('easy','medium','hard')`)
export class TaskEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'org_id' })
  orgId: string;

  @Column('uuid', { name: 'benchmark_version_id' })
  benchmarkVersionId: string;

  @ManyToOne(() => BenchmarkVersionEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'benchmark_version_id', foreignKeyConstraintName: 'tasks_benchmark_version_fk' })
  benchmarkVersion?: BenchmarkVersionEntity;

  @Column('text', { name: 'suite_key' })
  suiteKey: string;

  @Column('text', { name: 'task_key' })
  taskKey: string;

  @Column('text')
  difficulty: Difficulty;

  @Column('double precision', { name: 'reference_kloc', nullable: true })
  referenceKloc: number | null;

  @Column('double precision', { name: 'time_budget_minutes' })
  timeBudgetMinutes: number;

  @Column('bigint', { name: 'expected_tokens', nullable: true, transformer: bigintNumber })
  expectedTokens: number | null;

  /** Position in the manifest, so listings follow the author's order. */
  @Column('integer')
  ordinal: number;
}
