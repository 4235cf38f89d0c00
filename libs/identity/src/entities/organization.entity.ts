import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

@Entity('organizations')
export class OrganizationEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Index('organizations_slug_key', { unique: true })
  @Column('text')
  slug: string;

  @Column('text')
  name: string;

  /** The org made for a user at sign-up. */
  @Column('boolean', { default: false })
  personal: boolean;

  /** Executions of this org running at once, across its campaigns. */
  @Column('integer', { name: 'max_concurrency', default: 8 })
  maxConcurrency: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;
}
