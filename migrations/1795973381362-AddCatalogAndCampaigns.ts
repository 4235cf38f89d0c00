import type { MigrationInterface, QueryRunner } from 'typeorm';

export class AddCatalogAndCampaigns1795973381362 implements MigrationInterface {
  name = 'AddCatalogAndCampaigns1795973381362';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "campaigns" ("id" uuid NOT NULL, "org_id" uuid NOT NULL, "name" text NOT NULL, "description" text, "status" text NOT NULL, "visibility" text NOT NULL, "seed" bigint NOT NULL, "repetitions" integer NOT NULL, "max_concurrency" integer NOT NULL, "budget_micros" bigint NOT NULL, "execution_count" integer NOT NULL, "plan" jsonb NOT NULL, "created_by_user_id" uuid, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "launched_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "campaigns_visibility_check" CHECK ("visibility" IN ('public','private')), CONSTRAINT "campaigns_status_check" CHECK ("status" IN ('created','running','paused','cancelled','completed')), CONSTRAINT "PK_831e3fcd4fc45b4e4c3f57a9ee4" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "campaigns_org_idx" ON "campaigns"  ("org_id", "created_at") `);
    await queryRunner.query(`CREATE TABLE "executions" ("id" uuid NOT NULL, "org_id" uuid NOT NULL, "campaign_id" uuid NOT NULL, "agent_config_version_id" uuid NOT NULL, "agent_name" text NOT NULL, "model" text NOT NULL, "mode" text NOT NULL, "benchmark_version_id" uuid NOT NULL, "benchmark_key" text NOT NULL, "task_id" uuid NOT NULL, "suite_key" text NOT NULL, "task_key" text NOT NULL, "difficulty" text NOT NULL, "repetition" integer NOT NULL, "status" text NOT NULL, "source" text NOT NULL DEFAULT 'run', "attempt" integer NOT NULL DEFAULT '0', "outcome" text, "tests_passed" integer, "tests_total" integer, "resolved" boolean, "wall_seconds" double precision, "shell_calls" integer, "input_tokens" bigint, "cache_read_tokens" bigint, "cache_write_tokens" bigint, "output_tokens" bigint, "reasoning_tokens" bigint, "cost_micros" bigint, "reference_kloc" double precision, "agents" jsonb, "record_hash" text, "started_at" TIMESTAMP WITH TIME ZONE, "finished_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "executions_status_check" CHECK ("status" IN ('queued','dispatching','running','completed','infra_failed','cancelled')), CONSTRAINT "PK_703e64e0ef651986191844b7b8b" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "executions_campaign_created_idx" ON "executions"  ("campaign_id", "created_at", "id") `);
    await queryRunner.query(`CREATE INDEX "executions_org_status_idx" ON "executions"  ("org_id", "status") `);
    await queryRunner.query(`CREATE INDEX "executions_campaign_status_idx" ON "executions"  ("campaign_id", "status") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "executions_unit_key" ON "executions"  ("campaign_id", "agent_config_version_id", "mode", "task_id", "repetition") `);
    await queryRunner.query(`CREATE TABLE "agent_configs" ("id" uuid NOT NULL, "org_id" uuid NOT NULL, "name" text NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_25aa11529ad4eedde0691d59192" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE UNIQUE INDEX "agent_configs_org_name_key" ON "agent_configs"  ("org_id", "name") `);
    await queryRunner.query(`CREATE TABLE "agent_config_versions" ("id" uuid NOT NULL, "org_id" uuid NOT NULL, "agent_config_id" uuid NOT NULL, "name" text NOT NULL, "version" integer NOT NULL, "fingerprint" text NOT NULL, "scaffold" text NOT NULL, "model" text NOT NULL, "manifest" jsonb NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_ea85f7ee3450cc2c332bdcfe9b3" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "agent_config_versions_org_idx" ON "agent_config_versions"  ("org_id", "created_at") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "agent_config_versions_config_version_key" ON "agent_config_versions"  ("agent_config_id", "version") `);
    await queryRunner.query(`CREATE TABLE "benchmarks" ("id" uuid NOT NULL, "org_id" uuid NOT NULL, "key" text NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_7e1ca1c910680770da116e0b95c" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE UNIQUE INDEX "benchmarks_org_key_key" ON "benchmarks"  ("org_id", "key") `);
    await queryRunner.query(`CREATE TABLE "benchmark_versions" ("id" uuid NOT NULL, "org_id" uuid NOT NULL, "benchmark_id" uuid NOT NULL, "key" text NOT NULL, "version" text NOT NULL, "seq" integer NOT NULL, "fingerprint" text NOT NULL, "name" text NOT NULL, "description" text, "visibility" text NOT NULL, "success_rule" text NOT NULL, "task_count" integer NOT NULL, "manifest" jsonb NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "benchmark_versions_visibility_check" CHECK ("visibility" IN ('public','private')), CONSTRAINT "PK_9b0e632c620be7028489125e73e" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "benchmark_versions_visibility_idx" ON "benchmark_versions"  ("visibility") `);
    await queryRunner.query(`CREATE INDEX "benchmark_versions_org_idx" ON "benchmark_versions"  ("org_id", "created_at") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "benchmark_versions_benchmark_version_key" ON "benchmark_versions"  ("benchmark_id", "version") `);
    await queryRunner.query(`CREATE TABLE "org_secrets" ("id" uuid NOT NULL, "org_id" uuid NOT NULL, "name" text NOT NULL, "sealed" bytea NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_2d6d41ea63190323a9f47ee7b46" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE UNIQUE INDEX "org_secrets_org_name_key" ON "org_secrets"  ("org_id", "name") `);
    await queryRunner.query(`CREATE TABLE "tasks" ("id" uuid NOT NULL, "org_id" uuid NOT NULL, "benchmark_version_id" uuid NOT NULL, "suite_key" text NOT NULL, "task_key" text NOT NULL, "difficulty" text NOT NULL, "reference_kloc" double precision, "time_budget_minutes" double precision NOT NULL, "expected_tokens" bigint, "ordinal" integer NOT NULL, CONSTRAINT "tasks_difficulty_check" CHECK ("difficulty" IN ('easy','medium','hard')), CONSTRAINT "PK_8d12ff38fcc62aaba2cab748772" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE UNIQUE INDEX "tasks_version_task_key" ON "tasks"  ("benchmark_version_id", "task_key") `);
    await queryRunner.query(`CREATE TABLE "model_prices" ("id" uuid NOT NULL, "org_id" uuid, "model" text NOT NULL, "effective_from" TIMESTAMP WITH TIME ZONE NOT NULL, "input_micros_per_mtok" bigint NOT NULL, "cache_read_micros_per_mtok" bigint NOT NULL, "cache_write_micros_per_mtok" bigint NOT NULL, "output_micros_per_mtok" bigint NOT NULL, "note" text, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_1409a57d11faf4496339c681f6e" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "model_prices_lookup_idx" ON "model_prices"  ("model", "effective_from") `);
    await queryRunner.query(`ALTER TABLE "executions" ADD CONSTRAINT "executions_campaign_fk" FOREIGN KEY ("campaign_id") REFERENCES "campaigns"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "agent_config_versions" ADD CONSTRAINT "agent_config_versions_config_fk" FOREIGN KEY ("agent_config_id") REFERENCES "agent_configs"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "benchmark_versions" ADD CONSTRAINT "benchmark_versions_benchmark_fk" FOREIGN KEY ("benchmark_id") REFERENCES "benchmarks"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "tasks" ADD CONSTRAINT "tasks_benchmark_version_fk" FOREIGN KEY ("benchmark_version_id") REFERENCES "benchmark_versions"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    // The demo agent's made-up prices (issue 5 bills its synthetic tokens with them), clearly marked.
    await queryRunner.query(`INSERT INTO "model_prices" ("id", "org_id", "model", "effective_from", "input_micros_per_mtok", "cache_read_micros_per_mtok", "cache_write_micros_per_mtok", "output_micros_per_mtok", "note") VALUES ('00000000-0000-4000-8000-00000000d0d0', NULL, 'fanout/demo-agent', '2026-01-01T00:00:00Z', 1000000, 100000, 1250000, 4000000, 'demo prices for the scripted demo agent; not a real model')`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "tasks" DROP CONSTRAINT "tasks_benchmark_version_fk"`);
    await queryRunner.query(`ALTER TABLE "benchmark_versions" DROP CONSTRAINT "benchmark_versions_benchmark_fk"`);
    await queryRunner.query(`ALTER TABLE "agent_config_versions" DROP CONSTRAINT "agent_config_versions_config_fk"`);
    await queryRunner.query(`ALTER TABLE "executions" DROP CONSTRAINT "executions_campaign_fk"`);
    await queryRunner.query(`DROP INDEX "public"."model_prices_lookup_idx"`);
    await queryRunner.query(`DROP TABLE "model_prices"`);
    await queryRunner.query(`DROP INDEX "public"."tasks_version_task_key"`);
    await queryRunner.query(`DROP TABLE "tasks"`);
    await queryRunner.query(`DROP INDEX "public"."org_secrets_org_name_key"`);
    await queryRunner.query(`DROP TABLE "org_secrets"`);
    await queryRunner.query(`DROP INDEX "public"."benchmark_versions_benchmark_version_key"`);
    await queryRunner.query(`DROP INDEX "public"."benchmark_versions_org_idx"`);
    await queryRunner.query(`DROP INDEX "public"."benchmark_versions_visibility_idx"`);
    await queryRunner.query(`DROP TABLE "benchmark_versions"`);
    await queryRunner.query(`DROP INDEX "public"."benchmarks_org_key_key"`);
    await queryRunner.query(`DROP TABLE "benchmarks"`);
    await queryRunner.query(`DROP INDEX "public"."agent_config_versions_config_version_key"`);
    await queryRunner.query(`DROP INDEX "public"."agent_config_versions_org_idx"`);
    await queryRunner.query(`DROP TABLE "agent_config_versions"`);
    await queryRunner.query(`DROP INDEX "public"."agent_configs_org_name_key"`);
    await queryRunner.query(`DROP TABLE "agent_configs"`);
    await queryRunner.query(`DROP INDEX "public"."executions_unit_key"`);
    await queryRunner.query(`DROP INDEX "public"."executions_campaign_status_idx"`);
    await queryRunner.query(`DROP INDEX "public"."executions_org_status_idx"`);
    await queryRunner.query(`DROP INDEX "public"."executions_campaign_created_idx"`);
    await queryRunner.query(`DROP TABLE "executions"`);
    await queryRunner.query(`DROP INDEX "public"."campaigns_org_idx"`);
    await queryRunner.query(`DROP TABLE "campaigns"`);
  }
}
