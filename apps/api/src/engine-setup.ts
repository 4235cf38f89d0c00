import type { AppConfig } from '#libs/config';
import { KubernetesJobExecutor, LocalProcessExecutor, databaseAttemptSource, loadKubeConfig, podNamespace, type Executor, type SchedulerOptions } from '#libs/engine';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';

/** The repository (or installed package) root: the nearest folder up with a package.json. */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

function schedulerOptions(config: AppConfig, logger: Logger, enabled: boolean): SchedulerOptions {
  return {
    enabled,
    maxAttempts: config.maxAttempts,
    tickMs: 500,
    backoffSeconds: config.retryBackoffSeconds,
    logger: logger.child({ component: 'scheduler' }),
  };
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
    scheduler: schedulerOptions(config, logger, config.scheduler === 'embedded'),
  };
}

/**
 * A cluster: each attempt a Job in its org's namespace, runners calling the
 * API at FANOUT_PUBLIC_URL. `schedule`: this process dispatches and
 * reconciles (the informers and leader election start only then).
 */
export function kubernetesEngine(config: AppConfig, logger: Logger, dataSource: DataSource, schedule: boolean): { executor: KubernetesJobExecutor; scheduler: SchedulerOptions } {
  const k = config.kubernetes;
  if (!k) throw new Error('kubernetesEngine needs FANOUT_EXECUTOR=kubernetes');
  const executor = new KubernetesJobExecutor({
    kubeConfig: loadKubeConfig(k.kubeconfig),
    source: databaseAttemptSource(dataSource),
    image: k.runnerImage,
    apiUrl: config.publicUrl,
    namespacePrefix: k.namespacePrefix,
    systemNamespace: k.systemNamespace ?? podNamespace() ?? 'fanout',
    maxJobs: k.maxJobs,
    qps: k.qps,
    ttlSecondsAfterFinished: k.jobTtlSeconds,
    unschedulableSeconds: k.unschedulableSeconds,
    kueue: k.kueueQueue ? { queue: k.kueueQueue, maxPending: k.kueueMaxPending } : null,
    logger: logger.child({ component: 'kubernetes-executor' }),
  });
  if (schedule) {
    executor.run().catch((err) => logger.error({ err }, 'the Kubernetes executor could not start its watches'));
  }
  return { executor, scheduler: schedulerOptions(config, logger, schedule) };
}

/** The executor FANOUT_EXECUTOR names, for the API process (which schedules when FANOUT_SCHEDULER=embedded). */
export function configuredEngine(config: AppConfig, logger: Logger, dataSource: DataSource): { executor: Executor; scheduler: SchedulerOptions } {
  return config.executor === 'kubernetes' ? kubernetesEngine(config, logger, dataSource, config.scheduler === 'embedded') : localEngine(config, logger);
}
