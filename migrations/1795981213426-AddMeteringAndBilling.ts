import type { MigrationInterface, QueryRunner } from 'typeorm';

export class AddMeteringAndBilling1795981213426 implements MigrationInterface {
  name = 'AddMeteringAndBilling1795981213426';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "stripe_meter_events" ("org_id" uuid NOT NULL, "hour" TIMESTAMP WITH TIME ZONE NOT NULL, "identifier" text NOT NULL, "event_name" text NOT NULL, "value" bigint NOT NULL, "status" text NOT NULL DEFAULT 'pending', "attempts" integer NOT NULL DEFAULT '0', "next_attempt_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_error" text, "delivered_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "stripe_meter_events_status_check" CHECK ("status" IN ('pending','delivered','failed')), CONSTRAINT "PK_f27a59a4132a630cf2c1a661f09" PRIMARY KEY ("org_id", "hour"))`);
    await queryRunner.query(`CREATE UNIQUE INDEX "stripe_meter_events_identifier_key" ON "stripe_meter_events"  ("identifier") `);
    await queryRunner.query(`CREATE INDEX "stripe_meter_events_due_idx" ON "stripe_meter_events"  ("status", "next_attempt_at") `);
    await queryRunner.query(`CREATE TABLE "stripe_webhook_events" ("id" text NOT NULL, "type" text NOT NULL, "org_id" uuid, "outcome" text NOT NULL, "received_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_0cf13fd3f2ff5604e092bc1ff48" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE TABLE "budget_alerts" ("id" uuid NOT NULL, "org_id" uuid NOT NULL, "scope" text NOT NULL, "campaign_id" uuid, "period" text, "threshold" integer NOT NULL, "dedupe_key" text NOT NULL, "spent_micros" bigint NOT NULL, "cap_micros" bigint NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "webhook_status" text NOT NULL DEFAULT 'none', "webhook_attempts" integer NOT NULL DEFAULT '0', "next_attempt_at" TIMESTAMP WITH TIME ZONE, "last_error" text, CONSTRAINT "budget_alerts_webhook_check" CHECK ("webhook_status" IN ('none','pending','delivered','failed')), CONSTRAINT "budget_alerts_scope_check" CHECK ("scope" IN ('campaign','org')), CONSTRAINT "PK_d8d537f43c8f669b9768235b9a6" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE UNIQUE INDEX "budget_alerts_dedupe_key" ON "budget_alerts"  ("dedupe_key") `);
    await queryRunner.query(`CREATE INDEX "budget_alerts_webhook_idx" ON "budget_alerts"  ("webhook_status", "next_attempt_at") `);
    await queryRunner.query(`CREATE INDEX "budget_alerts_org_idx" ON "budget_alerts"  ("org_id", "created_at") `);
    await queryRunner.query(`CREATE TABLE "cost_recomputes" ("id" uuid NOT NULL, "org_id" uuid NOT NULL, "campaign_id" uuid NOT NULL, "requested_by_user_id" uuid, "calls" integer NOT NULL, "before_micros" bigint NOT NULL, "after_micros" bigint NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_7b78a42b7bb7488159491f2e3bc" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "cost_recomputes_org_idx" ON "cost_recomputes"  ("org_id", "created_at") `);
    await queryRunner.query(`CREATE TABLE "usage_ledger" ("execution_id" uuid NOT NULL, "event_id" text NOT NULL, "org_id" uuid NOT NULL, "campaign_id" uuid NOT NULL, "agent_config_version_id" uuid NOT NULL, "agent_name" text NOT NULL, "mode" text NOT NULL, "agent_id" text NOT NULL, "provider" text NOT NULL, "model" text NOT NULL, "call_time" TIMESTAMP WITH TIME ZONE NOT NULL, "recorded_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "uncached_input_tokens" bigint NOT NULL, "cache_read_tokens" bigint NOT NULL, "cache_write_tokens" bigint NOT NULL, "output_tokens" bigint NOT NULL, "reasoning_tokens" bigint NOT NULL, "cost_micros" bigint NOT NULL, "unpriced" boolean NOT NULL, "price_id" uuid, CONSTRAINT "PK_9d64e77a424a241d0b8b21ba67a" PRIMARY KEY ("execution_id", "event_id"))`);
    await queryRunner.query(`CREATE INDEX "usage_ledger_campaign_idx" ON "usage_ledger"  ("campaign_id", "call_time") `);
    await queryRunner.query(`CREATE INDEX "usage_ledger_org_recorded_idx" ON "usage_ledger"  ("org_id", "recorded_at") `);
    await queryRunner.query(`CREATE TABLE "org_spend" ("org_id" uuid NOT NULL, "month" date NOT NULL, "spent_micros" bigint NOT NULL DEFAULT '0', "reserved_micros" bigint NOT NULL DEFAULT '0', CONSTRAINT "PK_32fcf43ea0722e7af031500bb5f" PRIMARY KEY ("org_id", "month"))`);
    await queryRunner.query(`ALTER TABLE "organizations" ADD "monthly_budget_micros" bigint`);
    await queryRunner.query(`ALTER TABLE "organizations" ADD "alert_webhook_url" text`);
    await queryRunner.query(`ALTER TABLE "organizations" ADD "billing_hold" boolean NOT NULL DEFAULT false`);
    await queryRunner.query(`ALTER TABLE "organizations" ADD "stripe_customer_id" text`);
    await queryRunner.query(`ALTER TABLE "organizations" ADD "plan" text`);
    await queryRunner.query(`ALTER TABLE "users" ADD "platform_admin" boolean NOT NULL DEFAULT false`);
    await queryRunner.query(`ALTER TABLE "campaigns" ADD "spent_micros" bigint NOT NULL DEFAULT '0'`);
    await queryRunner.query(`ALTER TABLE "campaigns" ADD "reserved_micros" bigint NOT NULL DEFAULT '0'`);
    await queryRunner.query(`ALTER TABLE "campaigns" ADD "pause_reason" text`);
    await queryRunner.query(`ALTER TABLE "executions" ADD "reserved_micros" bigint NOT NULL DEFAULT '0'`);
    // Hand-written: the generator does not diff CHECK expressions.
    await queryRunner.query(`ALTER TABLE "executions" DROP CONSTRAINT "executions_status_check"`);
    await queryRunner.query(
      `ALTER TABLE "executions" ADD CONSTRAINT "executions_status_check" CHECK ("status" IN ('queued','dispatching','running','completed','infra_failed','cancelled','cancelled_budget'))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`UPDATE "executions" SET "status" = 'cancelled' WHERE "status" = 'cancelled_budget'`);
    await queryRunner.query(`ALTER TABLE "executions" DROP CONSTRAINT "executions_status_check"`);
    await queryRunner.query(`ALTER TABLE "executions" ADD CONSTRAINT "executions_status_check" CHECK ("status" IN ('queued','dispatching','running','completed','infra_failed','cancelled'))`);
    await queryRunner.query(`ALTER TABLE "executions" DROP COLUMN "reserved_micros"`);
    await queryRunner.query(`ALTER TABLE "campaigns" DROP COLUMN "pause_reason"`);
    await queryRunner.query(`ALTER TABLE "campaigns" DROP COLUMN "reserved_micros"`);
    await queryRunner.query(`ALTER TABLE "campaigns" DROP COLUMN "spent_micros"`);
    await queryRunner.query(`ALTER TABLE "users" DROP COLUMN "platform_admin"`);
    await queryRunner.query(`ALTER TABLE "organizations" DROP COLUMN "plan"`);
    await queryRunner.query(`ALTER TABLE "organizations" DROP COLUMN "stripe_customer_id"`);
    await queryRunner.query(`ALTER TABLE "organizations" DROP COLUMN "billing_hold"`);
    await queryRunner.query(`ALTER TABLE "organizations" DROP COLUMN "alert_webhook_url"`);
    await queryRunner.query(`ALTER TABLE "organizations" DROP COLUMN "monthly_budget_micros"`);
    await queryRunner.query(`DROP TABLE "org_spend"`);
    await queryRunner.query(`DROP INDEX "public"."usage_ledger_org_recorded_idx"`);
    await queryRunner.query(`DROP INDEX "public"."usage_ledger_campaign_idx"`);
    await queryRunner.query(`DROP TABLE "usage_ledger"`);
    await queryRunner.query(`DROP INDEX "public"."cost_recomputes_org_idx"`);
    await queryRunner.query(`DROP TABLE "cost_recomputes"`);
    await queryRunner.query(`DROP INDEX "public"."budget_alerts_org_idx"`);
    await queryRunner.query(`DROP INDEX "public"."budget_alerts_webhook_idx"`);
    await queryRunner.query(`DROP INDEX "public"."budget_alerts_dedupe_key"`);
    await queryRunner.query(`DROP TABLE "budget_alerts"`);
    await queryRunner.query(`DROP TABLE "stripe_webhook_events"`);
    await queryRunner.query(`DROP INDEX "public"."stripe_meter_events_due_idx"`);
    await queryRunner.query(`DROP INDEX "public"."stripe_meter_events_identifier_key"`);
    await queryRunner.query(`DROP TABLE "stripe_meter_events"`);
  }
}
