import { Field, GraphQLISODateTime, ID, InputType, Int, ObjectType } from '@nestjs/graphql';
import { Allow } from 'class-validator';
import { GraphQLJSON, GraphQLJSONObject } from 'graphql-scalars';
import { Connection } from '../graphql/connection.js';

@ObjectType({ description: 'A node of a codebook: category > subcategory > pattern.' })
export class CodebookNode {
  @Field() key: string;
  @Field({ description: 'category, subcategory or pattern.' }) level: string;
  @Field(() => String, { nullable: true }) parentKey: string | null;
  @Field() label: string;
  @Field() definition: string;
  @Field(() => [String]) examples: string[];
}

@InputType()
export class CodebookNodeInput {
  @Field() @Allow() key: string;
  @Field() @Allow() level: string;
  @Field(() => String, { nullable: true }) @Allow() parentKey?: string | null;
  @Field() @Allow() label: string;
  @Field({ defaultValue: '' }) @Allow() definition: string;
  @Field(() => [String], { nullable: true }) @Allow() examples?: string[] | null;
}

@ObjectType()
export class CodebookVersion {
  @Field(() => ID) id: string;
  @Field(() => Int) version: number;
  @Field({ description: 'draft (editable) or published (immutable).' }) status: string;
  @Field(() => [CodebookNode]) nodes: CodebookNode[];
  @Field(() => GraphQLJSONObject, { nullable: true, description: "Previous version's pattern keys mapped to this version's." }) keyMap: Record<string, string> | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) publishedAt: Date | null;
}

@ObjectType()
export class Codebook {
  @Field(() => ID) id: string;
  @Field() key: string;
  @Field() name: string;
  @Field(() => String, { nullable: true }) description: string | null;
  @Field({ description: 'Built in (the starter codebook), shared by every organization and read-only.' }) builtIn: boolean;
  @Field(() => [CodebookVersion]) versions: CodebookVersion[];
}

@InputType()
export class CreateCodebookInput {
  @Field() @Allow() key: string;
  @Field() @Allow() name: string;
  @Field(() => String, { nullable: true }) @Allow() description?: string | null;
  @Field(() => [CodebookNodeInput], { description: 'Start from the starter codebook\'s nodes (codebooks { versions { nodes } }) and extend them.' }) @Allow() nodes: CodebookNodeInput[];
}

@InputType()
export class CodebookVersionInput {
  @Field(() => [CodebookNodeInput]) @Allow() nodes: CodebookNodeInput[];
  @Field(() => GraphQLJSONObject, { nullable: true }) @Allow() keyMap?: Record<string, string> | null;
}

@ObjectType()
export class LabelEvidence {
  @Field(() => String, { nullable: true }) eventId: string | null;
  @Field(() => String, { nullable: true }) agentId: string | null;
  @Field(() => String, { nullable: true }) from: string | null;
  @Field(() => String, { nullable: true }) to: string | null;
}

@InputType()
export class LabelEvidenceInput {
  @Field(() => String, { nullable: true }) @Allow() eventId?: string | null;
  @Field(() => String, { nullable: true }) @Allow() agentId?: string | null;
  @Field(() => String, { nullable: true, description: 'ISO time: start of the evidence range.' }) @Allow() from?: string | null;
  @Field(() => String, { nullable: true }) @Allow() to?: string | null;
}

@ObjectType()
export class Label {
  @Field() pattern: string;
  @Field() rationale: string;
  @Field(() => [LabelEvidence], { nullable: true }) evidence?: LabelEvidence[];
}

@InputType()
export class LabelInput {
  @Field() @Allow() pattern: string;
  @Field() @Allow() rationale: string;
  @Field(() => [LabelEvidenceInput], { nullable: true }) @Allow() evidence?: LabelEvidenceInput[] | null;
}

@InputType()
export class AdjudicatedLabelInput {
  @Field() @Allow() pattern: string;
  @Field() @Allow() rationale: string;
  @Field({ description: 'A (annotator in slot 1), B (slot 2), both, or new.' }) @Allow() source: string;
}

@ObjectType()
export class AdjudicatedLabel {
  @Field() pattern: string;
  @Field() rationale: string;
  @Field() source: string;
}

@ObjectType({ description: "One annotator's submission: immutable; a correction is a new revision." })
export class Annotation {
  @Field(() => ID) id: string;
  @Field(() => Int, { description: '1 is annotator A, 2 is B.' }) slot: number;
  @Field(() => Int) revision: number;
  @Field(() => ID) annotatorUserId: string;
  @Field(() => [Label]) labels: Label[];
  @Field(() => GraphQLISODateTime) createdAt: Date;
}

@ObjectType()
export class Adjudication {
  @Field(() => ID) id: string;
  @Field(() => ID, { nullable: true, description: 'Null for final labels imported with an API key.' }) adjudicatorUserId: string | null;
  @Field(() => [AdjudicatedLabel]) labels: AdjudicatedLabel[];
  @Field() rationale: string;
  @Field(() => GraphQLISODateTime) createdAt: Date;
}

@ObjectType()
export class AnnotationComment {
  @Field(() => ID) id: string;
  @Field(() => ID) authorUserId: string;
  @Field() body: string;
  @Field(() => GraphQLISODateTime) createdAt: Date;
}

@ObjectType({ description: "A detector's suggestion: shown as a suggestion, never pre-selected." })
export class AnnotationSuggestion {
  @Field(() => ID) id: string;
  @Field() detector: string;
  @Field() pattern: string;
  @Field() summary: string;
  @Field(() => GraphQLJSON) evidence: unknown;
}

@ObjectType({ description: 'One execution to label. PENDING -> DOUBLE_CODED -> AGREED | DISAGREED -> ADJUDICATED.' })
export class AnnotationItem {
  @Field(() => ID) id: string;
  @Field(() => ID) annotationCampaignId: string;
  @Field(() => ID) executionId: string;
  @Field(() => ID, { nullable: true, description: 'The same agent, task and repetition in the other mode, for reference.' }) pairedExecutionId: string | null;
  @Field() agentName: string;
  @Field() status: string;
  @Field(() => GraphQLISODateTime, { nullable: true }) doubleCodedAt: Date | null;
}

@ObjectType()
export class AnnotationItemConnection extends Connection(AnnotationItem) {}

@ObjectType()
export class AnnotationAssignment {
  @Field(() => AnnotationItem) item: AnnotationItem;
  @Field(() => Int) slot: number;
  @Field(() => GraphQLISODateTime, { description: 'The item returns to the pool after this unless submitted.' }) reservedUntil: Date;
}

@ObjectType()
export class AnnotationProgress {
  @Field(() => Int) pending: number;
  @Field(() => Int) doubleCoded: number;
  @Field(() => Int) agreed: number;
  @Field(() => Int) disagreed: number;
  @Field(() => Int) adjudicated: number;
  @Field(() => Int) total: number;
}

@ObjectType()
export class AnnotationCampaign {
  @Field(() => ID) id: string;
  @Field(() => ID) campaignId: string;
  @Field(() => ID) codebookVersionId: string;
  @Field() name: string;
  @Field(() => Int) annotatorsPerItem: number;
  @Field() blind: boolean;
  @Field(() => Int) reservationMinutes: number;
  @Field(() => GraphQLISODateTime) createdAt: Date;
}

@InputType()
export class CreateAnnotationCampaignInput {
  @Field(() => ID) @Allow() campaign: string;
  @Field(() => ID) @Allow() codebookVersion: string;
  @Field() @Allow() name: string;
  @Field(() => [String], { nullable: true, description: 'Executions with a result in these modes (default: concurrent).' }) @Allow() modes?: string[] | null;
  @Field(() => [ID], { nullable: true, description: 'Or exactly these executions.' }) @Allow() executions?: string[] | null;
  @Field(() => Int, { nullable: true, description: 'Default 2.' }) @Allow() annotatorsPerItem?: number | null;
  @Field({ nullable: true, description: 'Default true: no one sees the labels of an item until all its annotators have submitted.' }) @Allow() blind?: boolean;
  @Field(() => Int, { nullable: true, description: 'Default 30.' }) @Allow() reservationMinutes?: number | null;
}

@InputType()
export class ImportedLabelsInput {
  @Field(() => ID) @Allow() execution: string;
  @Field(() => [LabelInput]) @Allow() labels: LabelInput[];
  @Field(() => String, { nullable: true }) @Allow() rationale?: string | null;
}

@ObjectType()
export class ImportedLabels {
  @Field(() => Int) imported: number;
}
