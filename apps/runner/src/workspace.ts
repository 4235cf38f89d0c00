import { execFile } from 'node:child_process';
import { cp, mkdir, rm, stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { promisify } from 'node:util';
import { RunnerError } from './runner.error.js';

const run = promisify(execFile);

/** The layout of the runner's work folder. */
export interface WorkPaths {
  workDir: string;
  /** The agent's working directory (a copy of the task workspace). */
  workspace: string;
  /** Where the agent appends trajectory events (FANOUT_EVENTS_FILE). */
  eventsFile: string;
  /** The agent's stdout and stderr. */
  agentLog: string;
  /** The grader's stdout and stderr. */
  graderLog: string;
}

export function workPaths(workDir: string): WorkPaths {
  return {
    workDir,
    workspace: resolve(workDir, 'workspace'),
    eventsFile: resolve(workDir, 'events.ndjson'),
    agentLog: resolve(workDir, 'agent.log'),
    graderLog: resolve(workDir, 'grader.log'),
  };
}

/**
 * Copies the task's starter workspace into `dest` (emptied first): a folder
 * is copied recursively (symlinks kept as they are), a .tar/.tar.gz/.tgz
 * archive is extracted with the system `tar`, a .zip with `unzip`. When the
 * hidden tests live inside the workspace folder they are left out: the agent
 * must not see them.
 */
export async function prepareWorkspace(source: string, dest: string, hiddenTests: string | null): Promise<void> {
  const kind = await sourceKind(source);
  await rm(dest, { recursive: true, force: true });
  await mkdir(dest, { recursive: true });
  if (kind === 'folder') {
    const excluded = hiddenTests ? resolve(hiddenTests) : null;
    await cp(source, dest, {
      recursive: true,
      verbatimSymlinks: true,
      filter: (path) => excluded === null || !isInside(resolve(path), excluded),
    });
  } else if (kind === 'zip') {
    await extract('unzip', ['-q', source, '-d', dest], source);
  } else {
    await extract('tar', [kind === 'tar' ? '-xf' : '-xzf', source, '-C', dest], source);
  }
}

/**
 * Puts the hidden tests in as `<workspace>/tests`, replacing whatever the
 * agent left there: the grader runs the official tests, not the agent's.
 */
export async function installHiddenTests(tests: string, workspace: string): Promise<void> {
  const info = await stat(tests).catch(() => null);
  if (!info?.isDirectory()) throw new RunnerError(`the hidden tests ${tests} are not a folder (does it exist on this machine?)`);
  const dest = resolve(workspace, 'tests');
  await rm(dest, { recursive: true, force: true });
  await cp(tests, dest, { recursive: true, verbatimSymlinks: true });
}

type SourceKind = 'folder' | 'tar' | 'tar.gz' | 'zip';

async function sourceKind(source: string): Promise<SourceKind> {
  if (!isAbsolute(source)) throw new RunnerError(`the task workspace must be an absolute path, got ${JSON.stringify(source)}`);
  const info = await stat(source).catch(() => null);
  if (!info) throw new RunnerError(`the task workspace ${source} does not exist on this machine`);
  if (info.isDirectory()) return 'folder';
  const lower = source.toLowerCase();
  if (lower.endsWith('.tar')) return 'tar';
  if (lower.endsWith('.tar.gz') || lower.endsWith('.tgz')) return 'tar.gz';
  if (lower.endsWith('.zip')) return 'zip';
  throw new RunnerError(`the task workspace ${source} is neither a folder nor a .tar, .tar.gz, .tgz or .zip archive`);
}

async function extract(tool: string, args: string[], source: string): Promise<void> {
  try {
    await run(tool, args, { maxBuffer: 16 * 1024 * 1024 });
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { stderr?: string };
    if (e.code === 'ENOENT') throw new RunnerError(`cannot extract ${source}: \`${tool}\` is not installed on this machine`);
    throw new RunnerError(`cannot extract ${source} with ${tool}: ${(e.stderr || e.message).trim().slice(0, 500)}`);
  }
}

function isInside(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}
