// Writes migrations/<timestamp>-<Name>.ts with the SQL that brings a database
// migrated to the current head up to the current entities (and back down).
// Review the file before committing: the generator knows columns, not intent.
//
//   npm run migration:generate -- AddCampaigns
import { writeFile } from 'node:fs/promises';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const name = process.argv[2];
if (!name || !/^[A-Z][A-Za-z0-9]+$/.test(name)) {
  console.error('usage: npm run migration:generate -- VerbNoun   (PascalCase, e.g. AddCampaigns)');
  process.exit(2);
}
const { EmbeddedPostgresManager, createDataSource, migrate } = await import('#libs/database');
const { entities, migrations } = await import('#libs/persistence');
const { pino } = await import('pino');
const home = await mkdtemp(join(tmpdir(), 'fanout-migration-'));
const server = await new EmbeddedPostgresManager({ home, port: 54000 + Math.floor(Math.random() * 900), logger: pino({ level: 'warn' }) }).start();
try {
  const ds = createDataSource(server.url, { entities, migrations });
  await ds.initialize();
  await migrate(ds);
  const sql = await ds.driver.createSchemaBuilder().log();
  await ds.destroy();
  if (sql.upQueries.length === 0) {
    console.error('entities and migrations agree: nothing to generate');
    process.exit(0);
  }
  const esc = (q) => '`' + q.replaceAll('\\', '\\\\').replaceAll('`', '\\`').replaceAll('${', '\\${') + '`';
  const ts = Date.now();
  const up = sql.upQueries.map((q) => `    await queryRunner.query(${esc(q.query)});`).join('\n');
  const down = [...sql.downQueries].reverse().map((q) => `    await queryRunner.query(${esc(q.query)});`).join('\n');
  const file = join('migrations', `${ts}-${name}.ts`);
  await writeFile(
    file,
    `import type { MigrationInterface, QueryRunner } from 'typeorm';\n\nexport class ${name}${ts} implements MigrationInterface {\n  name = '${name}${ts}';\n\n  async up(queryRunner: QueryRunner): Promise<void> {\n${up}\n  }\n\n  async down(queryRunner: QueryRunner): Promise<void> {\n${down}\n  }\n}\n`,
  );
  console.error(`wrote ${file}; add it to migrations/index.ts and review it`);
} finally {
  await server.stop();
  await rm(home, { recursive: true, force: true });
}
