import type { MigrationInterface, QueryRunner } from 'typeorm';

export class AddExecutionEngine1795974362837 implements MigrationInterface {
  name = 'AddExecutionEngine1795974362837';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "trajectory_events" ("execution_id" uuid NOT NULL, "event_id" text NOT NULL, "org_id" uuid NOT NULL, "seq" BIGSERIAL NOT NULL, "type" text NOT NULL, "agent_id" text NOT NULL, "time" TIMESTAMP WITH TIME ZONE NOT NULL, "data" jsonb NOT NULL, CONSTRAINT "PK_58c8590d104a0a69a1de6755253" PRIMARY KEY ("execution_id", "event_id"))`);
    await queryRunner.query(`CREATE INDEX "trajectory_events_order_idx" ON "trajectory_events"  ("execution_id", "seq") `);
    await queryRunner.query(`CREATE TABLE "trajectory_payloads" ("execution_id" uuid NOT NULL, "event_id" text NOT NULL, "org_id" uuid NOT NULL, "body" text NOT NULL, CONSTRAINT "PK_798cf319396890e4cce0eef0d72" PRIMARY KEY ("execution_id", "event_id"))`);
    await queryRunner.query(`ALTER TABLE "organizations" ADD "max_concurrency" integer NOT NULL DEFAULT '8'`);
    await queryRunner.query(`ALTER TABLE "benchmark_versions" ADD "source_dir" text`);
    await queryRunner.query(`ALTER TABLE "executions" ADD "runner_token_hash" bytea`);
    await queryRunner.query(`ALTER TABLE "executions" ADD "dispatched_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "executions" ADD "heartbeat_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "executions" ADD "next_attempt_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "executions" ADD "last_error" text`);
    await queryRunner.query(`ALTER TABLE "executions" ADD "agent_end" text`);
    await queryRunner.query(`ALTER TABLE "executions" ADD "agent_exit_code" integer`);
    await queryRunner.query(`ALTER TABLE "executions" ADD "grader_exit_code" integer`);
    await queryRunner.query(`ALTER TABLE "executions" ADD "summary" jsonb`);
    await queryRunner.query(`CREATE INDEX "executions_dispatch_idx" ON "executions"  ("status", "next_attempt_at") `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."executions_dispatch_idx"`);
    await queryRunner.query(`ALTER TABLE "executions" DROP COLUMN "summary"`);
    await queryRunner.query(`ALTER TABLE "executions" DROP COLUMN "grader_exit_code"`);
    await queryRunner.query(`ALTER TABLE "executions" DROP COLUMN "agent_exit_code"`);
    await queryRunner.query(`ALTER TABLE "executions" DROP COLUMN "agent_end"`);
    await queryRunner.query(`ALTER TABLE "executions" DROP COLUMN "last_error"`);
    await queryRunner.query(`ALTER TABLE "executions" DROP COLUMN "next_attempt_at"`);
    await queryRunner.query(`ALTER TABLE "executions" DROP COLUMN "heartbeat_at"`);
    await queryRunner.query(`ALTER TABLE "executions" DROP COLUMN "dispatched_at"`);
    await queryRunner.query(`ALTER TABLE "executions" DROP COLUMN "runner_token_hash"`);
    await queryRunner.query(`ALTER TABLE "benchmark_versions" DROP COLUMN "source_dir"`);
    await queryRunner.query(`ALTER TABLE "organizations" DROP COLUMN "max_concurrency"`);
    await queryRunner.query(`DROP TABLE "trajectory_payloads"`);
    await queryRunner.query(`DROP INDEX "public"."trajectory_events_order_idx"`);
    await queryRunner.query(`DROP TABLE "trajectory_events"`);
  }
}
