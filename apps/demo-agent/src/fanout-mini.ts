import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadPlan, type Plan } from './plan.js';
import { readText, withRegion, writeAtomic } from './workspace.js';

/**
 * Helpers around the fanout-mini benchmark for tests and hand runs: where its
 * tasks are, the reference solution (every plan fragment applied to the
 * starter workspace), and grading the way the runner does (hidden tests
 * copied in as tests/, `node --test` with TAP).
 */
const here = fileURLToPath(new URL('.', import.meta.url));
/** The repository root, from the sources (apps/demo-agent/src) or the build (dist/apps/demo-agent/src). */
export const REPO_ROOT = join(here, /[\\/]dist[\\/]apps[\\/]demo-agent[\\/]src[\\/]?$/.test(here) ? '../../../..' : '../../..');
export const FANOUT_MINI = join(REPO_ROOT, 'benchmarks', 'fanout-mini');

export function taskDir(task: string): string {
  return join(FANOUT_MINI, 'tasks', task);
}

export function fanoutMiniTasks(): string[] {
  return readdirSync(join(FANOUT_MINI, 'tasks')).sort();
}

export function taskPlan(task: string): Plan {
  return loadPlan(join(taskDir(task), 'plan.json'));
}

/** A fresh copy of a task's starter workspace in a temporary folder. */
export function copyWorkspace(task: string): string {
  const dir = mkdtempSync(join(tmpdir(), `fanout-mini-${task}-`));
  cpSync(join(taskDir(task), 'workspace'), dir, { recursive: true });
  return dir;
}

/** Writes every fragment of the plan into the workspace: the reference solution. */
export function applyPlan(workspace: string, plan: Plan): void {
  for (const step of plan.steps) {
    const path = join(workspace, step.file);
    writeAtomic(path, withRegion(readText(path), step.id, step.fragment));
  }
}

export interface TapResult {
  passed: number;
  failed: number;
  total: number;
  stdout: string;
}

/** Counts top-level TAP results (`ok N` / `not ok N`, `# SKIP` not counted). */
export function parseTap(stdout: string): TapResult {
  let passed = 0;
  let failed = 0;
  for (const line of stdout.split('\n')) {
    const m = /^(not )?ok \d+/.exec(line);
    if (!m || /#\s*SKIP/i.test(line)) continue;
    if (m[1]) failed++;
    else passed++;
  }
  return { passed, failed, total: passed + failed, stdout };
}

/** Grades a workspace like the runner: copies the hidden tests in as tests/ and runs the grader command. */
export function grade(workspace: string, task: string): Promise<TapResult> {
  cpSync(join(taskDir(task), 'tests'), join(workspace, 'tests'), { recursive: true });
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--test', '--test-reporter=tap', '--test-timeout=5000', 'tests/'], { cwd: workspace, stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.on('close', () => resolve(parseTap(out)));
  });
}
