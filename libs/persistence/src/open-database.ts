import type { AppConfig } from '#libs/config';
import { EmbeddedPostgresManager, createDataSource, migrate } from '#libs/database';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import { entities, migrations } from './index.js';

export interface OpenDatabase {
  dataSource: DataSource;
  url: string;
  embedded: boolean;
  /** Closes the pool, then stops the embedded server if this process owns it. */
  close(): Promise<void>;
}

/**
 * DATABASE_URL when set, else the embedded Postgres under FANOUT_HOME.
 * Migrates when asked (api start, `fanout db migrate`).
 */
export async function openDatabase(
  config: AppConfig,
  logger: Logger,
  options: { migrate: boolean; poolSize?: number },
): Promise<OpenDatabase> {
  const server = config.databaseUrl
    ? { url: config.databaseUrl, stop: async () => {} }
    : await new EmbeddedPostgresManager({ home: config.home, port: config.embeddedPgPort, logger }).start();
  const dataSource = createDataSource(server.url, { entities, migrations }, options.poolSize);
  try {
    await dataSource.initialize();
    if (options.migrate) {
      const applied = await migrate(dataSource);
      if (applied.length) logger.info({ applied }, 'migrations applied');
    }
  } catch (err) {
    if (dataSource.isInitialized) await dataSource.destroy();
    await server.stop();
    throw err;
  }
  return {
    dataSource,
    url: server.url,
    embedded: !config.databaseUrl,
    close: async () => {
      if (dataSource.isInitialized) await dataSource.destroy();
      await server.stop();
    },
  };
}
