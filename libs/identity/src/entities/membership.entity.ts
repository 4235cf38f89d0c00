import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Role } from '../role.js';
import { OrganizationEntity } from './organization.entity.js';
import { UserEntity } from './user.entity.js';

@Entity('memberships')
@Index('memberships_org_user_key', ['orgId', 'userId'], { unique: true })
@Index('memberships_user_idx', ['userId'])
@Check('memberships_role_check', `"role" IN ('owner','admin','member','adjudicator','annotator','viewer')`)
export class MembershipEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'org_id' })
  orgId: string;

  @ManyToOne(() => OrganizationEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'org_id', foreignKeyConstraintName: 'memberships_org_fk' })
  organization?: OrganizationEntity;

  @Column('uuid', { name: 'user_id' })
  userId: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'memberships_user_fk' })
  user?: UserEntity;

  @Column('text')
  role: Role;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;
}
