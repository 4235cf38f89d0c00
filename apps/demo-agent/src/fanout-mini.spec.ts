import { parseAgentConfigManifest, parseBenchmarkManifest } from '#libs/contracts';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyPlan, copyWorkspace, FANOUT_MINI, fanoutMiniTasks, grade, REPO_ROOT, taskDir, taskPlan } from './fanout-mini.js';
import { mutationSites } from './mutate.js';
import { partition, topoOrder } from './plan.js';
import { compiles, readText, withRegion } from './workspace.js';

const manifestText = readFileSync(join(FANOUT_MINI, 'benchmark.yaml'), 'utf8');

describe('fanout-mini benchmark', () => {
  it('has a manifest that parseBenchmarkManifest accepts', () => {
    const result = parseBenchmarkManifest(manifestText);
    if (!result.ok) throw new Error(JSON.stringify(result.errors, null, 2));
    const manifest = result.value;
    expect(manifest).toMatchObject({ id: 'fanout-mini', version: '1.0.0', visibility: 'public' });
    const tasks = manifest.suites.flatMap((s) => s.tasks);
    expect(tasks.map((t) => t.id).sort()).toEqual(fanoutMiniTasks());
    expect(tasks.length).toBeGreaterThanOrEqual(12);
    for (const difficulty of ['easy', 'medium', 'hard'] as const) expect(tasks.filter((t) => t.difficulty === difficulty).length).toBeGreaterThanOrEqual(3);
    for (const task of tasks) {
      expect(existsSync(join(FANOUT_MINI, task.workspace)), task.workspace).toBe(true);
      expect(existsSync(join(FANOUT_MINI, task.tests!)), task.tests).toBe(true);
      expect(task.grader.format).toBe('tap');
      expect(task.timeBudgetMinutes).toBeLessThanOrEqual(1.5);
      expect(task.referenceKloc).toBeGreaterThan(0);
      expect(task.expectedTokens).toBeGreaterThan(0);
    }
  });

  it('has generated workspaces and plans in sync with the references', () => {
    execFileSync(process.execPath, [join(FANOUT_MINI, 'tools', 'build-tasks.mjs'), '--check'], { stdio: 'pipe' });
  });

  it.each(fanoutMiniTasks())('%s: a valid plan, shipped in the workspace, with real fragments', (task) => {
    const plan = taskPlan(task);
    expect(readFileSync(join(taskDir(task), 'workspace', '.demo-plan.json'), 'utf8')).toBe(readFileSync(join(taskDir(task), 'plan.json'), 'utf8'));
    expect(topoOrder(plan.steps)).toHaveLength(plan.steps.length);
    expect(plan.steps.length).toBeGreaterThanOrEqual(6);
    expect(plan.checks).toBe('checks');
    // Each fragment compiles in its starter file; most steps have a mistake to make.
    for (const step of plan.steps) {
      const starter = readText(join(taskDir(task), 'workspace', step.file));
      expect(starter, step.file).not.toBeNull();
      expect(compiles(withRegion(starter, step.id, step.fragment)), step.id).toBe(true);
    }
    const fallible = plan.steps.filter((s) => mutationSites(s.fragment).length > 0);
    expect(fallible.length / plan.steps.length).toBeGreaterThanOrEqual(0.5);
    expect(partition(plan.steps, 4).groups.length).toBeGreaterThanOrEqual(1);
  });

  it.each(fanoutMiniTasks())('%s: the reference solution passes every hidden test; the starter passes none', async (task) => {
    const reference = copyWorkspace(task);
    const starter = copyWorkspace(task);
    try {
      applyPlan(reference, taskPlan(task));
      const [solved, unsolved] = await Promise.all([grade(reference, task), grade(starter, task)]);
      expect(solved.failed, solved.stdout).toBe(0);
      expect(solved.passed).toBeGreaterThanOrEqual(8);
      expect(unsolved.passed).toBe(0);
      // Missing code fails test by test: the totals do not depend on what is written.
      expect(unsolved.total).toBe(solved.total);
    } finally {
      rmSync(reference, { recursive: true, force: true });
      rmSync(starter, { recursive: true, force: true });
    }
  });
});

describe('examples/demo-agent.yaml', () => {
  it('is a valid agent config with both modes', () => {
    const result = parseAgentConfigManifest(readFileSync(join(REPO_ROOT, 'examples', 'demo-agent.yaml'), 'utf8'));
    if (!result.ok) throw new Error(JSON.stringify(result.errors, null, 2));
    expect(result.value).toMatchObject({ name: 'demo-agent', scaffold: 'custom', model: 'fanout/demo-agent', command: ['fanout-demo-agent'] });
    expect(Object.keys(result.value.modes).sort()).toEqual(['concurrent', 'sequential']);
    expect(result.value.modes.concurrent.env).toMatchObject({ DEMO_CONCURRENCY: 'on' });
    expect(result.value.modes.sequential.env).toMatchObject({ DEMO_CONCURRENCY: 'off' });
  });
});
