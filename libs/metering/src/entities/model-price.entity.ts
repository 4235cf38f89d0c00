import { bigintNumber } from '#libs/database';
import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A model's prices per million tokens of each disjoint usage kind, in
 * micro-dollars, in force from `effectiveFrom`. `orgId` null: a platform
 * default; otherwise an org's negotiated price, which wins.
 */
@Entity('model_prices')
@Index('model_prices_lookup_idx', ['model', 'effectiveFrom'])
export class ModelPriceEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'org_id', nullable: true })
  orgId: string | null;

  @Column('text')
  model: string;

  @Column('timestamptz', { name: 'effective_from' })
  effectiveFrom: Date;

  @Column('bigint', { name: 'input_micros_per_mtok', transformer: bigintNumber })
  inputMicrosPerMTok: number;

  @Column('bigint', { name: 'cache_read_micros_per_mtok', transformer: bigintNumber })
  cacheReadMicrosPerMTok: number;

  @Column('bigint', { name: 'cache_write_micros_per_mtok', transformer: bigintNumber })
  cacheWriteMicrosPerMTok: number;

  @Column('bigint', { name: 'output_micros_per_mtok', transformer: bigintNumber })
  outputMicrosPerMTok: number;

  /** Shown next to costs priced with it (the demo agent's prices are made up). */
  @Column('text', { nullable: true })
  note: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;
}
