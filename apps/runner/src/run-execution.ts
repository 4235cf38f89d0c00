import type { ExecutionSpec, Grade } from '#libs/contracts';
import { GraderReportError, parseGraderReport, type GraderResult } from '#libs/grading';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pino, type Logger } from 'pino';
import { startAgent, type AgentExit } from './agent-process.js';
import { DEFAULT_UPLOADER_OPTIONS, EventUploader, type UploaderOptions, type UploadStats } from './event-uploader.js';
import { graderTimeoutMs, readReport, runGrader, type GraderRun } from './grader.js';
import { Heartbeater } from './heartbeat.js';
import type { ProcessGroup } from './process-group.js';
import { DEFAULT_RETRY, RunnerApiClient, type ApiRetryPolicies } from './runner-api.client.js';
import type { RunnerConfig } from './runner-config.js';
import { RunnerError } from './runner.error.js';
import { installHiddenTests, prepareWorkspace, workPaths, type WorkPaths } from './workspace.js';

export interface RunnerDeps {
  logger?: Logger;
  /** Aborting stops the run: the agent's group is killed, nothing is posted, runExecution throws a RunnerError. */
  signal?: AbortSignal;
  /** Between SIGTERM and SIGKILL to a process group (default: the config's). */
  killGraceMs?: number;
  /** Overrides the grader's time limit (default: `graderTimeoutMs(budget)`). */
  graderTimeoutMs?: number;
  retry?: ApiRetryPolicies;
  uploader?: Partial<Omit<UploaderOptions, 'retry'>>;
}

export type RunOutcome = { status: 'graded'; grade: Grade; events: UploadStats } | { status: 'cancelled'; events: UploadStats | null };

type AgentEnd = AgentExit | { kind: 'timeout' } | { kind: 'cancelled' };

/**
 * Runs one attempt of one execution (docs/runner.md): spec, workspace,
 * agent, events, hidden tests, grader, grade. Resolves once a result was
 * recorded (an agent failure is a result) or the execution was cancelled;
 * throws a `RunnerError` when the runner could not do its own job.
 */
export async function runExecution(config: RunnerConfig, deps: RunnerDeps = {}): Promise<RunOutcome> {
  const logger = deps.logger ?? pino({ level: 'silent' });
  const graceMs = deps.killGraceMs ?? config.killGraceMs;
  const retry = deps.retry ?? DEFAULT_RETRY;
  const api = new RunnerApiClient(config, logger, retry);
  const paths = workPaths(config.workDir);
  const stopped = stopSignal(deps.signal);
  await mkdir(paths.workDir, { recursive: true });

  const spec = await Promise.race([api.getSpec(deps.signal), stopped]);
  logger.info({ attempt: spec.attempt, task: spec.task.id, agent: spec.agent.name, mode: spec.mode, budgetSeconds: spec.task.timeBudgetSeconds }, 'spec received');

  let onCancel!: () => void;
  const cancelled = new Promise<void>((resolve) => (onCancel = resolve));
  let isCancelled = false;
  const heartbeat = new Heartbeater((hb) => api.heartbeat(hb), spec.attempt, spec.heartbeatSeconds * 1000, logger, () => {
    isCancelled = true;
    onCancel();
  });
  let uploader: EventUploader | null = null;
  let agentGroup: ProcessGroup | null = null;
  let flushed: UploadStats | null = null;
  const flush = async () => (flushed = uploader ? await Promise.race([uploader.flush(), stopped]) : null);

  heartbeat.start('setup');
  try {
    await prepareWorkspace(spec.task.workspace, paths.workspace, spec.task.tests);
    await writeFile(paths.eventsFile, '');
    uploader = new EventUploader(paths.eventsFile, (ndjson) => api.postEvents(ndjson), logger, { ...DEFAULT_UPLOADER_OPTIONS, ...deps.uploader, retry: retry.events });
    uploader.start();
    if (isCancelled) return { status: 'cancelled', events: await flush() };

    heartbeat.setPhase('agent');
    const startedAt = Date.now();
    const deadline = new Date(startedAt + spec.task.timeBudgetSeconds * 1000);
    const agent = await startAgent(spec, paths, deadline);
    agentGroup = agent.group;
    // Recorded for the executor: if this runner is killed outright, it kills the agent's group from here.
    if (agent.group) await writeFile(join(paths.workDir, 'agent.pgid'), String(agent.group.pid));
    logger.info({ pid: agent.group?.pid, deadline: deadline.toISOString() }, 'agent started');

    const budget = new AbortController();
    const end: AgentEnd = await Promise.race([
      agent.exit,
      // Capped: a delay past 2^31 ms would fire at once.
      sleep(Math.min(deadline.getTime() - Date.now(), 2 ** 31 - 1), { kind: 'timeout' } as const, { signal: budget.signal }),
      cancelled.then(() => ({ kind: 'cancelled' }) as const),
      stopped,
      uploader.failed,
    ]).finally(() => budget.abort());
    // On exit too: sub-agents the main agent left behind are still in its group.
    const killed = agent.group ? await agent.group.kill(graceMs) : 'none-left';
    agentGroup = null;
    logger.info({ end, processGroup: killed }, 'agent ended');

    if (end.kind === 'cancelled') return { status: 'cancelled', events: await flush() };
    heartbeat.setPhase('grading');
    const events = await flush();
    if (isCancelled) return { status: 'cancelled', events };

    if (spec.task.tests) await installHiddenTests(spec.task.tests, paths.workspace);
    const run = await runGrader(spec, paths, {
      timeoutMs: deps.graderTimeoutMs ?? graderTimeoutMs(spec.task.timeBudgetSeconds),
      killGraceMs: graceMs,
      cancelled: Promise.race([cancelled, stopped.catch(() => undefined)]),
    });
    if (deps.signal?.aborted) await stopped;
    if (run.cancelled) return { status: 'cancelled', events };
    logger.info({ exitCode: run.exitCode, timedOut: run.timedOut }, 'grader ended');

    const result = await gradeResult(spec, paths, run, logger);
    const grade: Grade = {
      attempt: spec.attempt,
      ...result,
      agentEnd: end.kind,
      agentExitCode: end.kind === 'exited' ? end.exitCode : null,
      graderExitCode: run.exitCode,
      wallSeconds: Math.round(Date.now() - startedAt) / 1000,
      graderOutputTail: run.outputTail,
    };
    await Promise.race([api.postGrade(grade, deps.signal), stopped]);
    logger.info({ testsPassed: grade.testsPassed, testsTotal: grade.testsTotal, resolved: grade.resolved, agentEnd: grade.agentEnd, events }, 'grade recorded');
    return { status: 'graded', grade, events: events! };
  } finally {
    heartbeat.stop();
    if (agentGroup) await agentGroup.kill(graceMs);
    if (uploader && !flushed) await uploader.abandon();
  }
}

/**
 * The grader's verdict. A report that is missing or unreadable is a runner
 * failure (the grader is broken: retry the attempt), except when the grader
 * ran out of time: then the agent's code most likely hung the tests, a
 * retry would hang again, and the result is 0 of 0, not resolved.
 */
async function gradeResult(spec: ExecutionSpec, paths: WorkPaths, run: GraderRun, logger: Logger): Promise<GraderResult> {
  const { format, reportPath } = spec.task.grader;
  const noResult = (why: string): GraderResult => {
    logger.warn({ why }, 'the grader timed out without a readable report: graded 0 of 0');
    return { testsPassed: 0, testsTotal: 0, resolved: false };
  };
  let report: string | null;
  try {
    report = await readReport(spec, paths, run);
  } catch (err) {
    throw new RunnerError(`cannot read the grader report: ${(err as Error).message}`);
  }
  if (report === null) {
    if (run.timedOut) return noResult(`no report at ${reportPath}`);
    throw new RunnerError(`the grader (exit code ${run.exitCode}) wrote no report at ${reportPath}; its output ended with: ${run.outputTail.slice(-500)}`);
  }
  try {
    return parseGraderReport(format, report);
  } catch (err) {
    if (!(err instanceof GraderReportError)) throw err;
    if (run.timedOut) return noResult(err.message);
    throw new RunnerError(`${err.message} (grader exit code ${run.exitCode})`);
  }
}

/** Never resolves; rejects with a RunnerError once `signal` aborts. */
function stopSignal(signal: AbortSignal | undefined): Promise<never> {
  const stopped = new Promise<never>((_, reject) => {
    if (!signal) return;
    const stop = () => reject(new RunnerError(`the runner was stopped${signal.reason ? ` (${String(signal.reason)})` : ''}`));
    if (signal.aborted) stop();
    else signal.addEventListener('abort', stop, { once: true });
  });
  stopped.catch(() => undefined);
  return stopped;
}
