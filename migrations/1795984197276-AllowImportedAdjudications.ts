import type { MigrationInterface, QueryRunner } from 'typeorm';

export class AllowImportedAdjudications1795984197276 implements MigrationInterface {
  name = 'AllowImportedAdjudications1795984197276';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "adjudications" ADD "imported_by_api_key_id" uuid`);
    await queryRunner.query(`ALTER TABLE "adjudications" ALTER COLUMN "adjudicator_user_id" DROP NOT NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // Hand-written: final labels imported with an API key have no user; going back removes them (their items become pending again).
    await queryRunner.query(`UPDATE "annotation_items" SET "status" = 'pending' WHERE "id" IN (SELECT "item_id" FROM "adjudications" WHERE "adjudicator_user_id" IS NULL)`);
    await queryRunner.query(`DELETE FROM "adjudications" WHERE "adjudicator_user_id" IS NULL`);
    await queryRunner.query(`ALTER TABLE "adjudications" ALTER COLUMN "adjudicator_user_id" SET NOT NULL`);
    await queryRunner.query(`ALTER TABLE "adjudications" DROP COLUMN "imported_by_api_key_id"`);
  }
}
