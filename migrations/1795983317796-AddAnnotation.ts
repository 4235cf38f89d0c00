import type { MigrationInterface, QueryRunner } from 'typeorm';

export class AddAnnotation1795983317796 implements MigrationInterface {
  name = 'AddAnnotation1795983317796';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "annotation_campaigns" ("id" uuid NOT NULL, "org_id" uuid NOT NULL, "campaign_id" uuid NOT NULL, "codebook_version_id" uuid NOT NULL, "name" text NOT NULL, "annotators_per_item" integer NOT NULL, "blind" boolean NOT NULL, "reservation_minutes" integer NOT NULL, "created_by_user_id" uuid, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_0fdb27cf5c2a1dd7271f52c4436" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "annotation_campaigns_org_idx" ON "annotation_campaigns"  ("org_id", "created_at") `);
    await queryRunner.query(`CREATE TABLE "annotation_items" ("id" uuid NOT NULL, "org_id" uuid NOT NULL, "annotation_campaign_id" uuid NOT NULL, "execution_id" uuid NOT NULL, "paired_execution_id" uuid, "agent_name" text NOT NULL, "status" text NOT NULL, "double_coded_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "annotation_items_status_check" CHECK ("status" IN ('pending','double_coded','agreed','disagreed','adjudicated')), CONSTRAINT "PK_5498b7ccdea5e2d00dd3bafb761" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "annotation_items_status_idx" ON "annotation_items"  ("annotation_campaign_id", "status") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "annotation_items_unit" ON "annotation_items"  ("annotation_campaign_id", "execution_id") `);
    await queryRunner.query(`CREATE TABLE "annotation_assignments" ("id" uuid NOT NULL, "org_id" uuid NOT NULL, "item_id" uuid NOT NULL, "annotator_user_id" uuid NOT NULL, "slot" integer NOT NULL, "reserved_until" TIMESTAMP WITH TIME ZONE NOT NULL, "submitted_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_669c3808114544acec11b9c44f2" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE UNIQUE INDEX "annotation_assignments_annotator" ON "annotation_assignments"  ("item_id", "annotator_user_id") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "annotation_assignments_slot" ON "annotation_assignments"  ("item_id", "slot") `);
    await queryRunner.query(`CREATE TABLE "annotations" ("id" uuid NOT NULL, "org_id" uuid NOT NULL, "item_id" uuid NOT NULL, "assignment_id" uuid NOT NULL, "annotator_user_id" uuid NOT NULL, "slot" integer NOT NULL, "revision" integer NOT NULL, "labels" jsonb NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_d5b59b40ef7ee54b4309c2e89b2" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "annotations_item_idx" ON "annotations"  ("item_id") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "annotations_revision" ON "annotations"  ("assignment_id", "revision") `);
    await queryRunner.query(`CREATE TABLE "annotation_comments" ("id" uuid NOT NULL, "org_id" uuid NOT NULL, "item_id" uuid NOT NULL, "author_user_id" uuid NOT NULL, "body" text NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_b74254e51deda5652cff21d6d67" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "annotation_comments_item_idx" ON "annotation_comments"  ("item_id", "created_at") `);
    await queryRunner.query(`CREATE TABLE "adjudications" ("id" uuid NOT NULL, "org_id" uuid NOT NULL, "item_id" uuid NOT NULL, "adjudicator_user_id" uuid NOT NULL, "labels" jsonb NOT NULL, "rationale" text NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_163ba6e608d902d9072e6c5c880" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE UNIQUE INDEX "adjudications_item" ON "adjudications"  ("item_id") `);
    await queryRunner.query(`CREATE TABLE "annotation_suggestions" ("id" uuid NOT NULL, "org_id" uuid NOT NULL, "item_id" uuid NOT NULL, "detector" text NOT NULL, "pattern" text NOT NULL, "summary" text NOT NULL, "evidence" jsonb NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_e11f38b57eba86750572a7d505b" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "annotation_suggestions_item_idx" ON "annotation_suggestions"  ("item_id") `);
    await queryRunner.query(`CREATE TABLE "codebooks" ("id" uuid NOT NULL, "org_id" uuid, "key" text NOT NULL, "name" text NOT NULL, "description" text, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_0f926eae0e332d11bf94a97c5ab" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE UNIQUE INDEX "codebooks_org_key" ON "codebooks"  ("org_id", "key") `);
    await queryRunner.query(`CREATE TABLE "codebook_versions" ("id" uuid NOT NULL, "codebook_id" uuid NOT NULL, "org_id" uuid, "version" integer NOT NULL, "status" text NOT NULL, "nodes" jsonb NOT NULL, "key_map" jsonb, "published_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "codebook_versions_status_check" CHECK ("status" IN ('draft','published')), CONSTRAINT "PK_0f35caa4782b3f8795d9fb528b0" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE UNIQUE INDEX "codebook_versions_number" ON "codebook_versions"  ("codebook_id", "version") `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."codebook_versions_number"`);
    await queryRunner.query(`DROP TABLE "codebook_versions"`);
    await queryRunner.query(`DROP INDEX "public"."codebooks_org_key"`);
    await queryRunner.query(`DROP TABLE "codebooks"`);
    await queryRunner.query(`DROP INDEX "public"."annotation_suggestions_item_idx"`);
    await queryRunner.query(`DROP TABLE "annotation_suggestions"`);
    await queryRunner.query(`DROP INDEX "public"."adjudications_item"`);
    await queryRunner.query(`DROP TABLE "adjudications"`);
    await queryRunner.query(`DROP INDEX "public"."annotation_comments_item_idx"`);
    await queryRunner.query(`DROP TABLE "annotation_comments"`);
    await queryRunner.query(`DROP INDEX "public"."annotations_revision"`);
    await queryRunner.query(`DROP INDEX "public"."annotations_item_idx"`);
    await queryRunner.query(`DROP TABLE "annotations"`);
    await queryRunner.query(`DROP INDEX "public"."annotation_assignments_slot"`);
    await queryRunner.query(`DROP INDEX "public"."annotation_assignments_annotator"`);
    await queryRunner.query(`DROP TABLE "annotation_assignments"`);
    await queryRunner.query(`DROP INDEX "public"."annotation_items_unit"`);
    await queryRunner.query(`DROP INDEX "public"."annotation_items_status_idx"`);
    await queryRunner.query(`DROP TABLE "annotation_items"`);
    await queryRunner.query(`DROP INDEX "public"."annotation_campaigns_org_idx"`);
    await queryRunner.query(`DROP TABLE "annotation_campaigns"`);
  }
}
