import { migrate } from '#libs/database';
import { GraphQLSchemaHost } from '@nestjs/graphql';
import { lexicographicSortSchema, printSchema } from 'graphql';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../support/api.js';

describe('schema: database and GraphQL', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi();
  });
  afterAll(() => api.close());

  it('the migrations produce exactly what the entities describe (nothing left to generate)', async () => {
    const pending = await api.db.dataSource.driver.createSchemaBuilder().log();
    expect(pending.upQueries.map((q) => q.query)).toEqual([]);
  });

  it('every migration has a down that undoes it, and up again restores the schema', async () => {
    const ds = api.db.dataSource;
    const tables = async () =>
      (await ds.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1`)).map((r: { table_name: string }) => r.table_name);
    const before = await tables();
    expect(before).toContain('api_keys');
    while ((await ds.query('SELECT count(*)::int AS n FROM migrations'))[0].n > 0) await ds.undoLastMigration();
    expect(await tables()).toEqual(['migrations']);
    await migrate(ds);
    expect(await tables()).toEqual(before);
  });

  it('schema.gql in the repository is the schema the server serves (run `npm run schema` after changing it)', () => {
    const schema = api.app.get(GraphQLSchemaHost).schema;
    const committed = readFileSync(new URL('../../schema.gql', import.meta.url), 'utf8');
    expect(committed).toBe(printSchema(lexicographicSortSchema(schema)) + '\n');
  });
});
