import type { ExecutionSpec } from '#libs/contracts';
import { once } from 'node:events';
import { readFile, writeFile } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { commandLine, inheritedEnv } from './agent-process.js';
import { ProcessGroup } from './process-group.js';
import type { WorkPaths } from './workspace.js';

/** How much of the grader's output goes into the grade, for people. */
export const OUTPUT_TAIL_BYTES = 4096;
const MAX_STDOUT_BYTES = 64 * 1024 * 1024;

export interface GraderRun {
  /** null when a signal ended it (its timeout, a cancel, a crash). */
  exitCode: number | null;
  timedOut: boolean;
  cancelled: boolean;
  stdout: string;
  /** The last few KB of stdout and stderr together, as they came. */
  outputTail: string;
}

/** Grader time limit: twice the agent's budget, at least 30 s (process start-up, a cold cache), at most 5 minutes. */
export function graderTimeoutMs(timeBudgetSeconds: number): number {
  return Math.min(300, Math.max(30, 2 * timeBudgetSeconds)) * 1000;
}

/**
 * Runs the task's grader in the workspace (the hidden tests are in by now),
 * in a process group of its own, with a time limit. Its env is the runner's
 * PATH/HOME/LANG and FANOUT_WORKSPACE: not the agent's env, which may hold
 * secrets the grader has no business seeing.
 */
export async function runGrader(spec: ExecutionSpec, paths: WorkPaths, options: { timeoutMs: number; killGraceMs: number; cancelled: Promise<void> }): Promise<GraderRun> {
  const { file, argv } = commandLine(spec.task.grader.command);
  const env = { ...inheritedEnv(), FANOUT_WORKSPACE: paths.workspace };
  let group: ProcessGroup;
  try {
    group = await ProcessGroup.start(file, argv, { cwd: paths.workspace, env, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const tail = `fanout-runner: cannot start the grader ${JSON.stringify(file)}: ${e.message}\n`;
    await writeFile(paths.graderLog, tail);
    return { exitCode: e.code === 'ENOENT' ? 127 : 126, timedOut: false, cancelled: false, stdout: '', outputTail: tail };
  }
  const output = collectOutput(group);
  const timeout = new AbortController();
  const ended = await Promise.race([
    group.exited.then((exit) => ({ how: 'exited' as const, exit })),
    sleep(options.timeoutMs, undefined, { signal: timeout.signal }).then(() => ({ how: 'timeout' as const, exit: null }), () => ({ how: 'timeout' as const, exit: null })),
    options.cancelled.then(() => ({ how: 'cancelled' as const, exit: null })),
  ]);
  timeout.abort();
  // Whatever the grader left running (a test server, a watcher) goes too.
  await group.kill(options.killGraceMs);
  const exit = ended.exit ?? (await group.exited);
  const { stdout, tail, all } = await output.done();
  await writeFile(paths.graderLog, all);
  return {
    exitCode: ended.how === 'exited' ? exit.code : null,
    timedOut: ended.how === 'timeout',
    cancelled: ended.how === 'cancelled',
    stdout,
    outputTail: tail,
  };
}

/**
 * The grader's report: the file at `reportPath` (relative to the
 * workspace, and inside it), else its stdout. null when the file is missing.
 */
export async function readReport(spec: ExecutionSpec, paths: WorkPaths, run: GraderRun): Promise<string | null> {
  const reportPath = spec.task.grader.reportPath;
  if (reportPath === null) return run.stdout;
  const path = resolve(paths.workspace, reportPath);
  const rel = relative(paths.workspace, path);
  if (rel.startsWith('..') || isAbsolute(rel)) throw new Error(`reportPath ${JSON.stringify(reportPath)} is outside the workspace`);
  return readFile(path, 'utf8').catch(() => null);
}

/** Keeps stdout (for the report) and the tail of stdout + stderr; all of it for the grader log. */
function collectOutput(group: ProcessGroup) {
  const stdout: Buffer[] = [];
  let stdoutBytes = 0;
  const all: Buffer[] = [];
  let allBytes = 0;
  let tail = Buffer.alloc(0);
  const child = group.child;
  child.stdout!.on('data', (chunk: Buffer) => {
    if (stdoutBytes < MAX_STDOUT_BYTES) stdout.push(chunk);
    stdoutBytes += chunk.length;
  });
  const onAny = (chunk: Buffer) => {
    if (allBytes < MAX_STDOUT_BYTES) all.push(chunk);
    allBytes += chunk.length;
    tail = Buffer.concat([tail, chunk]);
    if (tail.length > OUTPUT_TAIL_BYTES) tail = tail.subarray(tail.length - OUTPUT_TAIL_BYTES);
  };
  child.stdout!.on('data', onAny);
  child.stderr!.on('data', onAny);
  const closed = Promise.all([once(child.stdout!, 'close'), once(child.stderr!, 'close')]);
  return {
    async done() {
      // The group is dead, so the pipes close; a process that escaped the group could hold them open.
      const timer = new AbortController();
      const waited = await Promise.race([closed.then(() => true), sleep(2_000, false, { signal: timer.signal }).catch(() => false)]);
      timer.abort();
      if (!waited) {
        child.stdout!.destroy();
        child.stderr!.destroy();
      }
      return { stdout: Buffer.concat(stdout).toString('utf8'), tail: tail.toString('utf8'), all: Buffer.concat(all) };
    },
  };
}
