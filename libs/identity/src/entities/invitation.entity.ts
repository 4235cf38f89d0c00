import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Role } from '../role.js';
import { OrganizationEntity } from './organization.entity.js';

/** An invitation to an email with no account yet; claimed at sign-up. */
@Entity('invitations')
@Index('invitations_open_key', ['orgId', 'email'], { unique: true, where: '"accepted_at" IS NULL' })
@Index('invitations_email_idx', ['email'])
@Check('invitations_role_check', `"role" IN ('owner','admin','member','adjudicator','annotator','viewer')`)
export class InvitationEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'org_id' })
  orgId: string;

  @ManyToOne(() => OrganizationEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'org_id', foreignKeyConstraintName: 'invitations_org_fk' })
  organization?: OrganizationEntity;

  @Column('text')
  email: string;

  @Column('text')
  role: Role;

  @Column('uuid', { name: 'invited_by_user_id', nullable: true })
  invitedByUserId: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;

  @Column('timestamptz', { name: 'accepted_at', nullable: true })
  acceptedAt: Date | null;
}
