import type { AppConfig } from '#libs/config';
import { LocalProcessExecutor, type Executor, type SchedulerOptions } from '#libs/engine';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';

/** The repository (or installed package) root: the nearest folder up with a package.json. */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

/** One machine: runners as local processes under FANOUT_HOME/work, calling this API back. */
export function localEngine(config: AppConfig, logger: Logger): { executor: Executor; scheduler: SchedulerOptions } {
  const root = packageRoot();
  return {
    executor: new LocalProcessExecutor({
      workRoot: join(config.home, 'work'),
      apiUrl: config.publicUrl,
      runnerEntry: join(root, 'dist/apps/runner/src/main.js'),
      maxConcurrent: config.maxLocalRuns,
      extraPath: [join(root, 'apps/demo-agent/bin'), join(root, 'node_modules/.bin')],
    }),
    scheduler: {
      enabled: config.scheduler === 'embedded',
      maxAttempts: config.maxAttempts,
      tickMs: 500,
      backoffSeconds: config.retryBackoffSeconds,
      logger: logger.child({ component: 'scheduler' }),
    },
  };
}
