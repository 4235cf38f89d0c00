import { resolve } from 'node:path';
import { parseEnvironment } from '#libs/config';
import { z } from 'zod';

const schema = z.object({
  FANOUT_API: z.url({ protocol: /^https?$/, error: 'expected an http:// or https:// base URL, e.g. http://127.0.0.1:3000' }),
  FANOUT_EXECUTION_ID: z.uuid({ error: 'expected the execution id (a UUID)' }),
  FANOUT_RUNNER_TOKEN: z.string({ error: 'expected the runner token of this execution' }).min(1, 'expected the runner token of this execution'),
  FANOUT_WORK_DIR: z.string({ error: 'expected a folder to work in (created if missing)' }).min(1, 'expected a folder to work in (created if missing)'),
  FANOUT_RUNNER_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  FANOUT_RUNNER_KILL_GRACE_SECONDS: z.coerce.number({ error: 'expected seconds from 0 to 600' }).min(0, 'expected seconds from 0 to 600').max(600, 'expected seconds from 0 to 600').default(3),
});

/** Never echoed back in an error message. */
const SECRET_VARIABLES = new Set(['FANOUT_RUNNER_TOKEN']);

export type RunnerConfig = Readonly<{
  /** Base URL of the Fanout API, without the /v1/... part. */
  api: string;
  executionId: string;
  token: string;
  /** Absolute path of the folder the runner works in. */
  workDir: string;
  logLevel: string;
  /** Between SIGTERM and SIGKILL when a process group is stopped. */
  killGraceMs: number;
}>;

export class RunnerConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RunnerConfigError';
  }
}

/**
 * Reads and validates the runner's environment once. An invalid one throws
 * a message naming each variable, what was expected and what was received
 * (never the token).
 */
export function loadRunnerConfig(env: NodeJS.ProcessEnv = process.env): RunnerConfig {
  const parsed = parseEnvironment(schema, env, SECRET_VARIABLES);
  if (!parsed.ok) {
    throw new RunnerConfigError(`fanout-runner: invalid environment:\n${parsed.problems.join('\n')}`);
  }
  const e = parsed.value;
  return Object.freeze({
    api: e.FANOUT_API,
    executionId: e.FANOUT_EXECUTION_ID,
    token: e.FANOUT_RUNNER_TOKEN,
    workDir: resolve(e.FANOUT_WORK_DIR),
    logLevel: e.FANOUT_RUNNER_LOG_LEVEL,
    killGraceMs: Math.round(e.FANOUT_RUNNER_KILL_GRACE_SECONDS * 1000),
  });
}
