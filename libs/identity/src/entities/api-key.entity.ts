import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Role } from '../role.js';
import { OrganizationEntity } from './organization.entity.js';

@Entity('api_keys')
@Index('api_keys_org_idx', ['orgId', 'createdAt'])
@Check('api_keys_role_check', `"role" IN ('owner','admin','member','adjudicator','annotator','viewer')`)
export class ApiKeyEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'org_id' })
  orgId: string;

  @ManyToOne(() => OrganizationEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'org_id', foreignKeyConstraintName: 'api_keys_org_fk' })
  organization?: OrganizationEntity;

  @Column('text')
  name: string;

  /** The public part of `fo_<prefix>_<secret>`; finds the row without scanning hashes. */
  @Index('api_keys_prefix_key', { unique: true })
  @Column('text')
  prefix: string;

  /** SHA-256 of the whole key. The secret itself is never stored. */
  @Column('bytea', { name: 'secret_hash' })
  secretHash: Buffer;

  @Column('text')
  role: Role;

  @Column('uuid', { name: 'created_by_user_id', nullable: true })
  createdByUserId: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;

  @Column('timestamptz', { name: 'last_used_at', nullable: true })
  lastUsedAt: Date | null;

  @Column('timestamptz', { name: 'expires_at', nullable: true })
  expiresAt: Date | null;

  @Column('timestamptz', { name: 'revoked_at', nullable: true })
  revokedAt: Date | null;
}
