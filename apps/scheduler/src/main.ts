import 'reflect-metadata';
import { ConfigError, loadConfig } from '#libs/config';
import { migrationsApplied } from '#libs/database';
import { createLogger } from '#libs/observability';
import { openDatabase } from '#libs/persistence';

/**
 * The scheduler process. Until the execution engine lands it connects,
 * checks the schema, and idles; it holds no state of its own, so it can be
 * stopped and started at any time.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel).child({ process: 'scheduler' });
  const db = await openDatabase(config, logger, { migrate: false, poolSize: 2 });
  if (!(await migrationsApplied(db.dataSource))) {
    logger.warn('pending migrations: start the API or run `fanout db migrate` first');
  }
  logger.info('scheduler started; no executions to dispatch yet (the execution engine is not built)');
  const stop = async (signal: string) => {
    logger.info({ signal }, 'scheduler stopping');
    await db.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  setInterval(() => undefined, 1 << 30);
}

main().catch((err) => {
  if (err instanceof ConfigError) console.error(err.message);
  else console.error(err instanceof Error ? err.stack : err);
  process.exit(1);
});
