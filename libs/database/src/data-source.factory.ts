import { DataSource, type MixedList, type EntitySchema } from 'typeorm';

export interface DataSourceParts {
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  entities: MixedList<Function | string | EntitySchema>;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  migrations: MixedList<Function | string>;
}

export function createDataSource(url: string, parts: DataSourceParts, poolSize = 10): DataSource {
  return new DataSource({
    type: 'postgres',
    url,
    entities: parts.entities,
    migrations: parts.migrations,
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    migrationsRun: false,
    logging: false,
    // migrate() holds its advisory lock on one connection while TypeORM runs
    // the migrations on another: a pool of one would wait for itself.
    extra: { max: Math.max(2, poolSize), application_name: 'fanout' },
  });
}

/**
 * Applies pending migrations under a Postgres advisory lock, so api and
 * scheduler replicas starting together migrate once and the rest wait.
 */
export async function migrate(dataSource: DataSource): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query(`SELECT pg_advisory_lock(hashtext('fanout:migrations'))`);
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((m) => m.name);
  } finally {
    await runner.query(`SELECT pg_advisory_unlock(hashtext('fanout:migrations'))`).catch(() => undefined);
    await runner.release();
  }
}

/** True when every migration the code knows has been applied. */
export async function migrationsApplied(dataSource: DataSource): Promise<boolean> {
  return !(await dataSource.showMigrations());
}
