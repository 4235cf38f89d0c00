import { createDataSource } from '#libs/database';
import { entities, migrations } from '#libs/persistence';
import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { inject } from 'vitest';
import { withDatabase } from './global-setup.js';

export interface TestDatabase {
  url: string;
  dataSource: DataSource;
  drop(): Promise<void>;
}

/** A fresh, migrated database of its own (a copy of the run's template). */
export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = inject('pgAdminUrl');
  const name = `fanout_test_${randomBytes(6).toString('hex')}`;
  const admin = createDataSource(adminUrl, { entities: [], migrations: [] }, 1);
  await admin.initialize();
  await admin.query(`CREATE DATABASE ${name} TEMPLATE ${inject('pgTemplate')}`);
  await admin.destroy();
  const url = withDatabase(adminUrl, name);
  const dataSource = createDataSource(url, { entities, migrations }, 5);
  await dataSource.initialize();
  return {
    url,
    dataSource,
    drop: async () => {
      if (dataSource.isInitialized) await dataSource.destroy();
      const a = createDataSource(adminUrl, { entities: [], migrations: [] }, 1);
      await a.initialize();
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.destroy();
    },
  };
}
