import { createLogger } from '#libs/observability';
import { pino } from 'pino';
import { loadRunnerConfig, RunnerConfigError, type RunnerConfig } from './runner-config.js';
import { runExecution } from './run-execution.js';
import { RunnerError } from './runner.error.js';

/**
 * fanout-runner: runs one attempt of one execution (docs/runner.md).
 * Exit codes: 0 a result was recorded (agent failures included) or the
 * execution was cancelled; 1 the runner itself failed (Fanout retries the
 * attempt as an infrastructure failure); 2 invalid environment.
 */
async function main(): Promise<number> {
  let config: RunnerConfig;
  try {
    config = loadRunnerConfig();
  } catch (err) {
    if (!(err instanceof RunnerConfigError)) throw err;
    console.error(err.message);
    return 2;
  }
  // Synchronous stderr: the last lines must be written before process.exit.
  const logger = createLogger(config.logLevel, pino.destination({ dest: 2, sync: true })).child({ process: 'runner', executionId: config.executionId });
  const stop = new AbortController();
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (stop.signal.aborted) process.exit(1); // a second signal: stop now (the exit hook still kills the agent's group)
      logger.warn({ signal }, 'stopping: killing the agent, posting nothing');
      stop.abort(signal);
    });
  }
  try {
    const outcome = await runExecution(config, { logger, signal: stop.signal });
    logger.info({ status: outcome.status }, 'runner done');
    return 0;
  } catch (err) {
    if (err instanceof RunnerError) logger.error({ err: err.message }, 'runner failed: no result recorded');
    else logger.error({ err }, 'runner crashed: no result recorded');
    return 1;
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err instanceof Error ? err.stack : err);
    process.exit(1);
  },
);
