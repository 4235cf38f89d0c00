import type { MigrationInterface, QueryRunner } from 'typeorm';

export class AddEventAttempts1795981516474 implements MigrationInterface {
  name = 'AddEventAttempts1795981516474';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "usage_ledger" ADD "attempt" integer NOT NULL`);
    await queryRunner.query(`ALTER TABLE "usage_ledger" DROP CONSTRAINT "PK_9d64e77a424a241d0b8b21ba67a"`);
    await queryRunner.query(`ALTER TABLE "usage_ledger" ADD CONSTRAINT "PK_c29666c684dc00ace37ed370919" PRIMARY KEY ("execution_id", "event_id", "attempt")`);
    await queryRunner.query(`ALTER TABLE "trajectory_events" ADD "attempt" integer NOT NULL DEFAULT '1'`);
    await queryRunner.query(`ALTER TABLE "trajectory_events" DROP CONSTRAINT "PK_58c8590d104a0a69a1de6755253"`);
    await queryRunner.query(`ALTER TABLE "trajectory_events" ADD CONSTRAINT "PK_5859136b0d57e987ccbc8fe637f" PRIMARY KEY ("event_id", "execution_id", "attempt")`);
    await queryRunner.query(`ALTER TABLE "trajectory_payloads" ADD "attempt" integer NOT NULL DEFAULT '1'`);
    await queryRunner.query(`ALTER TABLE "trajectory_payloads" DROP CONSTRAINT "PK_798cf319396890e4cce0eef0d72"`);
    await queryRunner.query(`ALTER TABLE "trajectory_payloads" ADD CONSTRAINT "PK_5fc9a20f445655e0a6da27c492b" PRIMARY KEY ("event_id", "execution_id", "attempt")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "trajectory_payloads" DROP CONSTRAINT "PK_5fc9a20f445655e0a6da27c492b"`);
    await queryRunner.query(`ALTER TABLE "trajectory_payloads" ADD CONSTRAINT "PK_798cf319396890e4cce0eef0d72" PRIMARY KEY ("event_id", "execution_id")`);
    await queryRunner.query(`ALTER TABLE "trajectory_payloads" DROP COLUMN "attempt"`);
    await queryRunner.query(`ALTER TABLE "trajectory_events" DROP CONSTRAINT "PK_5859136b0d57e987ccbc8fe637f"`);
    await queryRunner.query(`ALTER TABLE "trajectory_events" ADD CONSTRAINT "PK_58c8590d104a0a69a1de6755253" PRIMARY KEY ("event_id", "execution_id")`);
    await queryRunner.query(`ALTER TABLE "trajectory_events" DROP COLUMN "attempt"`);
    await queryRunner.query(`ALTER TABLE "usage_ledger" DROP CONSTRAINT "PK_c29666c684dc00ace37ed370919"`);
    await queryRunner.query(`ALTER TABLE "usage_ledger" ADD CONSTRAINT "PK_9d64e77a424a241d0b8b21ba67a" PRIMARY KEY ("execution_id", "event_id")`);
    await queryRunner.query(`ALTER TABLE "usage_ledger" DROP COLUMN "attempt"`);
  }
}
