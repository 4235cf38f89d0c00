import { Check, Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/** One node of a codebook: category > subcategory > pattern, each with a stable key. */
export interface CodebookNode {
  key: string;
  level: 'category' | 'subcategory' | 'pattern';
  /** The subcategory of a pattern, the category of a subcategory; null for a category. */
  parentKey: string | null;
  label: string;
  definition: string;
  examples: string[];
}

/** A codebook: a named, versioned taxonomy of failure patterns. `orgId` null: built in, read-only, shared by every org. */
@Entity('codebooks')
@Index('codebooks_org_key', ['orgId', 'key'], { unique: true })
export class CodebookEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'org_id', nullable: true })
  orgId: string | null;

  @Column('text')
  key: string;

  @Column('text')
  name: string;

  @Column('text', { nullable: true })
  description: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;
}

/**
 * A version of a codebook: its nodes, and for a version after the first, how
 * old pattern keys map to new ones. Editable while a draft; immutable once
 * published (labels refer to it).
 */
@Entity('codebook_versions')
@Index('codebook_versions_number', ['codebookId', 'version'], { unique: true })
@Check('codebook_versions_status_check', `"status" IN ('draft','published')`)
export class CodebookVersionEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'codebook_id' })
  codebookId: string;

  @Column('uuid', { name: 'org_id', nullable: true })
  orgId: string | null;

  @Column('integer')
  version: number;

  @Column('text')
  status: 'draft' | 'published';

  @Column('jsonb')
  nodes: CodebookNode[];

  /** Old pattern key -> new pattern key (from the previous version). */
  @Column('jsonb', { name: 'key_map', nullable: true })
  keyMap: Record<string, string> | null;

  @Column('timestamptz', { name: 'published_at', nullable: true })
  publishedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;
}
