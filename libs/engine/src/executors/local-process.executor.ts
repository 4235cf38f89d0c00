import { spawn } from 'node:child_process';
import { existsSync, openSync, closeSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Executor, type StartRequest } from './executor.js';

export interface LocalExecutorOptions {
  /** `.fanout/work`: one fresh folder per attempt. */
  workRoot: string;
  /** Base URL runners call back (the API). */
  apiUrl: string;
  /** The runner program (dist/apps/runner/src/main.js). */
  runnerEntry: string;
  maxConcurrent: number;
  /** Folders put first on the runner's PATH (e.g. where the demo agent's command lives). */
  extraPath?: string[];
}

// The runner needs its own few seconds to kill the agent's separate process group first.
const GRACE_MS = 10_000;

/**
 * One runner process per attempt, in its own process group (so a cancel or
 * deadline kills the agent's whole tree), detached so it survives a
 * scheduler restart; its pid file lets a restarted scheduler find it again.
 */
export class LocalProcessExecutor extends Executor {
  readonly capacity: number;
  override readonly stopOnShutdown = true;

  constructor(private readonly options: LocalExecutorOptions) {
    super();
    this.capacity = options.maxConcurrent;
  }

  workDir(executionId: string, attempt: number): string {
    return join(this.options.workRoot, `${executionId}-${attempt}`);
  }

  async start(request: StartRequest): Promise<void> {
    if (await this.isRunning(request.executionId, request.attempt)) return;
    const dir = this.workDir(request.executionId, request.attempt);
    await mkdir(dir, { recursive: true });
    const log = openSync(join(dir, 'runner.log'), 'a');
    const path = [...(this.options.extraPath ?? []), process.env.PATH ?? '/usr/bin:/bin'].join(':');
    const child = spawn(process.execPath, [this.options.runnerEntry], {
      cwd: dir,
      detached: true,
      stdio: ['ignore', log, log],
      env: {
        PATH: path,
        HOME: process.env.HOME ?? dir,
        LANG: process.env.LANG ?? 'C.UTF-8',
        FANOUT_API: this.options.apiUrl,
        FANOUT_EXECUTION_ID: request.executionId,
        FANOUT_RUNNER_TOKEN: request.token,
        FANOUT_WORK_DIR: dir,
      },
    });
    closeSync(log);
    if (!child.pid) throw new Error('the runner process did not start');
    await writeFile(join(dir, 'runner.pid'), String(child.pid));
    child.on('exit', (code) => {
      // A runner killed outright cannot stop its agent, which runs in a process group of its own.
      // (A runner that exits 0 has already ended the agent's group itself.)
      if (code !== 0) this.killAgentGroup(dir);
      this.onExit(request.executionId, request.attempt, code);
    });
    child.unref();
  }

  async isRunning(executionId: string, attempt: number): Promise<boolean> {
    const pid = this.pidOf(executionId, attempt);
    return pid !== null && alive(pid);
  }

  async stop(executionId: string, attempt: number): Promise<void> {
    const pid = this.pidOf(executionId, attempt);
    if (pid === null || !alive(pid)) return;
    signalGroup(pid, 'SIGTERM');
    const deadline = Date.now() + GRACE_MS;
    while (alive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    signalGroup(pid, 'SIGKILL');
    this.killAgentGroup(this.workDir(executionId, attempt));
  }

  /** The agent's process group, as the runner recorded it (`agent.pgid`); nothing when it already ended. */
  private killAgentGroup(dir: string): void {
    const file = join(dir, 'agent.pgid');
    if (!existsSync(file)) return;
    const pgid = Number(readFileSync(file, 'utf8'));
    if (!Number.isInteger(pgid) || pgid <= 1) return;
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      // the group has ended
    }
  }

  private pidOf(executionId: string, attempt: number): number | null {
    const file = join(this.workDir(executionId, attempt), 'runner.pid');
    if (!existsSync(file)) return null;
    const pid = Number(readFileSync(file, 'utf8'));
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The runner leads its process group: a negative pid reaches the agent and its sub-agents too. */
function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}
