import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/** A benchmark's identity in its owner org; its content lives in versions. */
@Entity('benchmarks')
@Index('benchmarks_org_key_key', ['orgId', 'key'], { unique: true })
export class BenchmarkEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'org_id' })
  orgId: string;

  /** The manifest's `id`. */
  @Column('text')
  key: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;
}
