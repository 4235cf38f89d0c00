import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

export interface GroupExit {
  /** The exit code, or null when a signal ended it. */
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** Process groups started and not yet known dead; SIGKILLed if the runner itself exits. */
const liveGroups = new Set<number>();
process.once('exit', () => {
  for (const pgid of liveGroups) signalGroup(pgid, 'SIGKILL');
});

/**
 * A command in a process group of its own (`detached`: setsid), so that the
 * group can be killed as a whole: the command, its children, and theirs. A
 * process that calls setsid itself leaves the group; only a cgroup (a
 * container) can catch that.
 */
export class ProcessGroup {
  readonly exited: Promise<GroupExit>;

  private constructor(readonly child: ChildProcess) {
    liveGroups.add(child.pid!);
    this.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  }

  /** Starts `file argv`; rejects (ENOENT, EACCES...) when it cannot be started at all. */
  static start(file: string, argv: string[], options: { cwd: string; env: Record<string, string>; stdio: StdioOptions }): Promise<ProcessGroup> {
    const child = spawn(file, argv, { ...options, detached: true });
    return new Promise((resolve, reject) => {
      child.once('spawn', () => resolve(new ProcessGroup(child)));
      child.once('error', reject);
    });
  }

  get pid(): number {
    return this.child.pid!;
  }

  /**
   * SIGTERM to the whole group, SIGKILL to what is left after `graceMs`;
   * resolves when no process of the group is alive. Also right after the
   * leader exited: sub-agents it left behind are still in its group.
   */
  async kill(graceMs: number): Promise<'none-left' | 'terminated' | 'killed' | 'survived'> {
    const pgid = this.pid;
    try {
      if (!groupAlive(pgid)) return 'none-left';
      signalGroup(pgid, 'SIGTERM');
      if (await waitGone(pgid, graceMs)) return 'terminated';
      signalGroup(pgid, 'SIGKILL');
      return (await waitGone(pgid, 5_000)) ? 'killed' : 'survived';
    } finally {
      liveGroups.delete(pgid);
    }
  }
}

export function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: nothing left to signal.
  }
}

/**
 * Whether any process of the group is still running. On Linux, /proc tells
 * zombies apart: a killed grandchild waits as a zombie until its new parent
 * reaps it, and in a container whose init does not reap, that is forever.
 */
export function groupAlive(pgid: number): boolean {
  const members = procGroupMembers(pgid);
  if (members !== null) return members.length > 0;
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Pids of the group's processes that are not zombies, or null without /proc. */
function procGroupMembers(pgid: number): number[] | null {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return null;
  }
  const members: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = processStat(Number(entry));
    if (stat && stat.pgrp === pgid && stat.state !== 'Z' && stat.state !== 'X') members.push(Number(entry));
  }
  return members;
}

/** State and process group of a pid from /proc/<pid>/stat, or null when it is gone. */
export function processStat(pid: number): { state: string; pgrp: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: read after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0]!, pgrp: Number(fields[2]) };
  } catch {
    return null;
  }
}

async function waitGone(pgid: number, timeoutMs: number): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (groupAlive(pgid)) {
    if (Date.now() >= until) return false;
    await sleep(50);
  }
  return true;
}
