import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Result stamps: one counter per scope ("campaign:<id>", and for public
 * campaigns "benchmark_version:<id>"), raised in the same transaction as any
 * change to an execution's result. A cached view is valid while the stamps of
 * its scopes are unchanged. Heartbeats and status moves do not touch results,
 * so they never raise a stamp. Scopes are raised in a fixed order so that two
 * statements never wait on each other's stamps (no deadlock).
 */
const RESULT_COLUMNS = [
  'outcome',
  'tests_passed',
  'tests_total',
  'resolved',
  'wall_seconds',
  'shell_calls',
  'input_tokens',
  'cache_read_tokens',
  'cache_write_tokens',
  'output_tokens',
  'reasoning_tokens',
  'cost_micros',
  'reference_kloc',
  'agents',
  'summary',
];

const bump = (rows: string) => `
    INSERT INTO result_stamps (scope, version)
    SELECT s.scope, 1 FROM (
      SELECT 'campaign:' || r.campaign_id AS scope FROM ${rows} r
      UNION
      SELECT 'benchmark_version:' || r.benchmark_version_id FROM ${rows} r JOIN campaigns c ON c.id = r.campaign_id WHERE c.visibility = 'public'
    ) s
    ORDER BY s.scope
    ON CONFLICT (scope) DO UPDATE SET version = result_stamps.version + 1;`;

export class AddResultStamps1795980669073 implements MigrationInterface {
  name = 'AddResultStamps1795980669073';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "result_stamps" ("scope" text PRIMARY KEY, "version" bigint NOT NULL)`);
    await queryRunner.query(`
CREATE FUNCTION fanout_results_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  ${bump('(SELECT * FROM new_rows WHERE outcome IS NOT NULL)')}
  RETURN NULL;
END $$`);
    await queryRunner.query(`
CREATE FUNCTION fanout_results_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  ${bump(`(SELECT n.* FROM new_rows n JOIN old_rows o ON o.id = n.id
      WHERE (${RESULT_COLUMNS.map((c) => `n.${c}`).join(', ')}) IS DISTINCT FROM (${RESULT_COLUMNS.map((c) => `o.${c}`).join(', ')}))`)}
  RETURN NULL;
END $$`);
    await queryRunner.query(`
CREATE FUNCTION fanout_results_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  ${bump('(SELECT * FROM old_rows WHERE outcome IS NOT NULL)')}
  RETURN NULL;
END $$`);
    await queryRunner.query(`CREATE TRIGGER executions_results_inserted AFTER INSERT ON executions REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION fanout_results_inserted()`);
    await queryRunner.query(`CREATE TRIGGER executions_results_updated AFTER UPDATE ON executions REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION fanout_results_updated()`);
    await queryRunner.query(`CREATE TRIGGER executions_results_deleted AFTER DELETE ON executions REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION fanout_results_deleted()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER executions_results_deleted ON executions`);
    await queryRunner.query(`DROP TRIGGER executions_results_updated ON executions`);
    await queryRunner.query(`DROP TRIGGER executions_results_inserted ON executions`);
    await queryRunner.query(`DROP FUNCTION fanout_results_deleted()`);
    await queryRunner.query(`DROP FUNCTION fanout_results_updated()`);
    await queryRunner.query(`DROP FUNCTION fanout_results_inserted()`);
    await queryRunner.query(`DROP TABLE "result_stamps"`);
  }
}
