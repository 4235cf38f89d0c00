import { Check, Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';

export type ItemStatus = 'pending' | 'double_coded' | 'agreed' | 'disagreed' | 'adjudicated';

/** Evidence for a label: a trajectory event, or a time range of an agent. */
export interface LabelEvidence {
  eventId?: string | null;
  agentId?: string | null;
  from?: string | null;
  to?: string | null;
}

export interface Label {
  pattern: string;
  rationale: string;
  evidence?: LabelEvidence[];
}

export interface AdjudicatedLabel {
  pattern: string;
  rationale: string;
  /** Where the final label came from: annotator A (slot 1), B (slot 2), both, or new. */
  source: 'A' | 'B' | 'both' | 'new';
}

/** Labelling of one run campaign's executions with one codebook version. */
@Entity('annotation_campaigns')
@Index('annotation_campaigns_org_idx', ['orgId', 'createdAt'])
export class AnnotationCampaignEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'org_id' })
  orgId: string;

  @Column('uuid', { name: 'campaign_id' })
  campaignId: string;

  @Column('uuid', { name: 'codebook_version_id' })
  codebookVersionId: string;

  @Column('text')
  name: string;

  @Column('integer', { name: 'annotators_per_item' })
  annotatorsPerItem: number;

  @Column('boolean')
  blind: boolean;

  @Column('integer', { name: 'reservation_minutes' })
  reservationMinutes: number;

  @Column('uuid', { name: 'created_by_user_id', nullable: true })
  createdByUserId: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;
}

/** One execution to label: PENDING -> DOUBLE_CODED -> AGREED | DISAGREED -> ADJUDICATED. */
@Entity('annotation_items')
@Index('annotation_items_unit', ['annotationCampaignId', 'executionId'], { unique: true })
@Index('annotation_items_status_idx', ['annotationCampaignId', 'status'])
@Check('annotation_items_status_check', `"status" IN ('pending','double_coded','agreed','disagreed','adjudicated')`)
export class AnnotationItemEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'org_id' })
  orgId: string;

  @Column('uuid', { name: 'annotation_campaign_id' })
  annotationCampaignId: string;

  @Column('uuid', { name: 'execution_id' })
  executionId: string;

  /** The same agent, task and repetition in the other mode, shown beside it for reference. */
  @Column('uuid', { name: 'paired_execution_id', nullable: true })
  pairedExecutionId: string | null;

  @Column('text', { name: 'agent_name' })
  agentName: string;

  @Column('text')
  status: ItemStatus;

  @Column('timestamptz', { name: 'double_coded_at', nullable: true })
  doubleCodedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt: Date;
}

/** An annotator's slot on an item: reserved until a time (then back to the pool unless submitted). */
@Entity('annotation_assignments')
@Index('annotation_assignments_slot', ['itemId', 'slot'], { unique: true })
@Index('annotation_assignments_annotator', ['itemId', 'annotatorUserId'], { unique: true })
export class AnnotationAssignmentEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'org_id' })
  orgId: string;

  @Column('uuid', { name: 'item_id' })
  itemId: string;

  @Column('uuid', { name: 'annotator_user_id' })
  annotatorUserId: string;

  /** 1 is annotator A, 2 is B, ... */
  @Column('integer')
  slot: number;

  @Column('timestamptz', { name: 'reserved_until' })
  reservedUntil: Date;

  @Column('timestamptz', { name: 'submitted_at', nullable: true })
  submittedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;
}

/** A submitted label set: immutable; a correction is a new revision. */
@Entity('annotations')
@Index('annotations_revision', ['assignmentId', 'revision'], { unique: true })
@Index('annotations_item_idx', ['itemId'])
export class AnnotationEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'org_id' })
  orgId: string;

  @Column('uuid', { name: 'item_id' })
  itemId: string;

  @Column('uuid', { name: 'assignment_id' })
  assignmentId: string;

  @Column('uuid', { name: 'annotator_user_id' })
  annotatorUserId: string;

  @Column('integer')
  slot: number;

  @Column('integer')
  revision: number;

  @Column('jsonb')
  labels: Label[];

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;
}

/** The discussion of a disagreed item. */
@Entity('annotation_comments')
@Index('annotation_comments_item_idx', ['itemId', 'createdAt'])
export class AnnotationCommentEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'org_id' })
  orgId: string;

  @Column('uuid', { name: 'item_id' })
  itemId: string;

  @Column('uuid', { name: 'author_user_id' })
  authorUserId: string;

  @Column('text')
  body: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;
}

/** The final labels of a disagreed item, by an adjudicator, with where each came from. */
@Entity('adjudications')
export class AdjudicationEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'org_id' })
  orgId: string;

  @Index('adjudications_item', { unique: true })
  @Column('uuid', { name: 'item_id' })
  itemId: string;

  /** Null for final labels imported with an API key. */
  @Column('uuid', { name: 'adjudicator_user_id', nullable: true })
  adjudicatorUserId: string | null;

  /** The API key that imported these final labels, when an API key did. */
  @Column('uuid', { name: 'imported_by_api_key_id', nullable: true })
  importedByApiKeyId: string | null;

  @Column('jsonb')
  labels: AdjudicatedLabel[];

  @Column('text')
  rationale: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;
}

/** A detector's suggestion for an item: shown as a suggestion, never pre-selected. */
@Entity('annotation_suggestions')
@Index('annotation_suggestions_item_idx', ['itemId'])
export class AnnotationSuggestionEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'org_id' })
  orgId: string;

  @Column('uuid', { name: 'item_id' })
  itemId: string;

  @Column('text')
  detector: string;

  @Column('text')
  pattern: string;

  @Column('text')
  summary: string;

  @Column('jsonb')
  evidence: unknown[];

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;
}
