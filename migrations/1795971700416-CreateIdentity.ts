import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateIdentity1795971700416 implements MigrationInterface {
  name = 'CreateIdentity1795971700416';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "organizations" ("id" uuid NOT NULL, "slug" text NOT NULL, "name" text NOT NULL, "personal" boolean NOT NULL DEFAULT false, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_6b031fcd0863e3f6b44230163f9" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE UNIQUE INDEX "organizations_slug_key" ON "organizations"  ("slug") `);
    await queryRunner.query(`CREATE TABLE "api_keys" ("id" uuid NOT NULL, "org_id" uuid NOT NULL, "name" text NOT NULL, "prefix" text NOT NULL, "secret_hash" bytea NOT NULL, "role" text NOT NULL, "created_by_user_id" uuid, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "last_used_at" TIMESTAMP WITH TIME ZONE, "expires_at" TIMESTAMP WITH TIME ZONE, "revoked_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "api_keys_role_check" CHECK ("role" IN ('owner','admin','member','adjudicator','annotator','viewer')), CONSTRAINT "PK_5c8a79801b44bd27b79228e1dad" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE UNIQUE INDEX "api_keys_prefix_key" ON "api_keys"  ("prefix") `);
    await queryRunner.query(`CREATE INDEX "api_keys_org_idx" ON "api_keys"  ("org_id", "created_at") `);
    await queryRunner.query(`CREATE TABLE "invitations" ("id" uuid NOT NULL, "org_id" uuid NOT NULL, "email" text NOT NULL, "role" text NOT NULL, "invited_by_user_id" uuid, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "accepted_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "invitations_role_check" CHECK ("role" IN ('owner','admin','member','adjudicator','annotator','viewer')), CONSTRAINT "PK_5dec98cfdfd562e4ad3648bbb07" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "invitations_email_idx" ON "invitations"  ("email") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "invitations_open_key" ON "invitations"  ("org_id", "email") WHERE "accepted_at" IS NULL`);
    await queryRunner.query(`CREATE TABLE "users" ("id" uuid NOT NULL, "email" text NOT NULL, "name" text NOT NULL, "password_hash" text, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_a3ffb1c0c8416b9fc6f907b7433" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE UNIQUE INDEX "users_email_key" ON "users"  ("email") `);
    await queryRunner.query(`CREATE TABLE "memberships" ("id" uuid NOT NULL, "org_id" uuid NOT NULL, "user_id" uuid NOT NULL, "role" text NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "memberships_role_check" CHECK ("role" IN ('owner','admin','member','adjudicator','annotator','viewer')), CONSTRAINT "PK_25d28bd932097a9e90495ede7b4" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "memberships_user_idx" ON "memberships"  ("user_id") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "memberships_org_user_key" ON "memberships"  ("org_id", "user_id") `);
    await queryRunner.query(`CREATE TABLE "sessions" ("id" uuid NOT NULL, "user_id" uuid NOT NULL, "org_id" uuid NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "revoked_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_3238ef96f18b355b671619111bc" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "sessions_user_idx" ON "sessions"  ("user_id") `);
    await queryRunner.query(`ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_org_fk" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "invitations" ADD CONSTRAINT "invitations_org_fk" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "memberships" ADD CONSTRAINT "memberships_org_fk" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "memberships" ADD CONSTRAINT "memberships_user_fk" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_fk" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "sessions" ADD CONSTRAINT "sessions_org_fk" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "sessions" DROP CONSTRAINT "sessions_org_fk"`);
    await queryRunner.query(`ALTER TABLE "sessions" DROP CONSTRAINT "sessions_user_fk"`);
    await queryRunner.query(`ALTER TABLE "memberships" DROP CONSTRAINT "memberships_user_fk"`);
    await queryRunner.query(`ALTER TABLE "memberships" DROP CONSTRAINT "memberships_org_fk"`);
    await queryRunner.query(`ALTER TABLE "invitations" DROP CONSTRAINT "invitations_org_fk"`);
    await queryRunner.query(`ALTER TABLE "api_keys" DROP CONSTRAINT "api_keys_org_fk"`);
    await queryRunner.query(`DROP INDEX "public"."sessions_user_idx"`);
    await queryRunner.query(`DROP TABLE "sessions"`);
    await queryRunner.query(`DROP INDEX "public"."memberships_org_user_key"`);
    await queryRunner.query(`DROP INDEX "public"."memberships_user_idx"`);
    await queryRunner.query(`DROP TABLE "memberships"`);
    await queryRunner.query(`DROP INDEX "public"."users_email_key"`);
    await queryRunner.query(`DROP TABLE "users"`);
    await queryRunner.query(`DROP INDEX "public"."invitations_open_key"`);
    await queryRunner.query(`DROP INDEX "public"."invitations_email_idx"`);
    await queryRunner.query(`DROP TABLE "invitations"`);
    await queryRunner.query(`DROP INDEX "public"."api_keys_org_idx"`);
    await queryRunner.query(`DROP INDEX "public"."api_keys_prefix_key"`);
    await queryRunner.query(`DROP TABLE "api_keys"`);
    await queryRunner.query(`DROP INDEX "public"."organizations_slug_key"`);
    await queryRunner.query(`DROP TABLE "organizations"`);
  }
}
