import { EmbeddedPostgresManager, createDataSource, migrate } from '#libs/database';
import { entities, migrations } from '#libs/persistence';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import type { TestProject } from 'vitest/node';
import { freePort } from './free-port.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Admin URL of the run's Postgres, database `postgres`. */
    pgAdminUrl: string;
    /** Name of the migrated template database each test file copies. */
    pgTemplate: string;
  }
}

export const TEMPLATE = 'fanout_template';

/**
 * One real Postgres for the whole run (the embedded one, or TEST_DATABASE_URL
 * pointing at a server where we may create databases), migrated once into
 * a template database; each test file copies it (CREATE DATABASE ... TEMPLATE).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let adminUrl: string;
  let stop = async () => {};
  if (process.env.TEST_DATABASE_URL) {
    adminUrl = process.env.TEST_DATABASE_URL;
  } else {
    const home = await mkdtemp(join(tmpdir(), 'fanout-test-pg-'));
    const server = await new EmbeddedPostgresManager({
      home,
      port: await freePort(),
      logger: pino({ level: 'warn' }),
      database: 'postgres',
      // Durability off: a crashed test run loses nothing that matters.
      settings: { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off', max_connections: '300' },
    }).start();
    adminUrl = server.url;
    stop = async () => {
      await server.stop();
      await rm(home, { recursive: true, force: true });
    };
  }
  const admin = createDataSource(adminUrl, { entities: [], migrations: [] }, 1);
  await admin.initialize();
  await admin.query(`DROP DATABASE IF EXISTS ${TEMPLATE}`);
  await admin.query(`CREATE DATABASE ${TEMPLATE}`);
  await admin.destroy();
  const template = createDataSource(withDatabase(adminUrl, TEMPLATE), { entities, migrations }, 1);
  await template.initialize();
  await migrate(template);
  await template.destroy();
  project.provide('pgAdminUrl', adminUrl);
  project.provide('pgTemplate', TEMPLATE);
  return stop;
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}
