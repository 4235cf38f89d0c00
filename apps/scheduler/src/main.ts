import 'reflect-metadata';
import { ConfigError, loadConfig } from '#libs/config';
import { migrationsApplied } from '#libs/database';
import { KubernetesJobExecutor, SchedulerService } from '#libs/engine';
import { createLogger } from '#libs/observability';
import { openDatabase } from '#libs/persistence';
import { kubernetesEngine, localEngine } from '../../api/src/engine-setup.js';

/**
 * The scheduler on its own (the API then runs with FANOUT_SCHEDULER=off):
 * dispatch and reconcile through the executor FANOUT_EXECUTOR names. It
 * holds no state of its own, so it can be stopped and started at any time,
 * and several may run (with Kubernetes, one at a time reconciles: the Lease).
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel).child({ process: 'scheduler' });
  const db = await openDatabase(config, logger, { migrate: false, poolSize: 4 });
  while (!(await migrationsApplied(db.dataSource))) {
    logger.warn('pending migrations: start the API or run `fanout db migrate` first; checking again in 10 s');
    await new Promise((r) => setTimeout(r, 10_000));
  }
  const engine = config.executor === 'kubernetes' ? kubernetesEngine(config, logger, db.dataSource, true) : localEngine(config, logger);
  const scheduler = new SchedulerService(db.dataSource, engine.executor, { ...engine.scheduler, enabled: true });
  scheduler.onApplicationBootstrap();
  logger.info({ executor: config.executor, capacity: engine.executor.capacity }, 'scheduler process started');
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'scheduler stopping');
    await scheduler.beforeApplicationShutdown();
    await scheduler.onApplicationShutdown();
    if (engine.executor instanceof KubernetesJobExecutor) await engine.executor.close();
    await db.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((err) => {
  if (err instanceof ConfigError) console.error(err.message);
  else console.error(err instanceof Error ? err.stack : err);
  process.exit(1);
});
