import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** A secret an agent needs (a provider API key), AES-256-GCM encrypted; never returned by the API. */
@Entity('org_secrets')
@Index('org_secrets_org_name_key', ['orgId', 'name'], { unique: true })
export class OrgSecretEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'org_id' })
  orgId: string;

  @Column('text')
  name: string;

  /** iv (12 bytes) | auth tag (16 bytes) | ciphertext. */
  @Column('bytea')
  sealed: Buffer;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt: Date;
}
