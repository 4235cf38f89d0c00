import type { AgentConfigManifest } from '#libs/contracts';
import { Column, JoinColumn, ManyToOne, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import { AgentConfigEntity } from './agent-config.entity.js';

/** One registered agent config manifest. Immutable; runs pin the version. */
@Entity('agent_config_versions')
@Index('agent_config_versions_config_version_key', ['agentConfigId', 'version'], { unique: true })
@Index('agent_config_versions_org_idx', ['orgId', 'createdAt'])
export class AgentConfigVersionEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'org_id' })
  orgId: string;

  @Column('uuid', { name: 'agent_config_id' })
  agentConfigId: string;

  @ManyToOne(() => AgentConfigEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'agent_config_id', foreignKeyConstraintName: 'agent_config_versions_config_fk' })
  agentConfig?: AgentConfigEntity;

  @Column('text')
  name: string;

  @Column('integer')
  version: number;

  @Column('text')
  fingerprint: string;

  @Column('text')
  scaffold: string;

  @Column('text')
  model: string;

  @Column('jsonb')
  manifest: AgentConfigManifest;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;
}
