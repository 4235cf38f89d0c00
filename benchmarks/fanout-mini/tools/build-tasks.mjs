#!/usr/bin/env node
// Builds each fanout-mini task's starter workspace and reference plan from its
// reference solution, so that the plan's fragments ARE the reference solution.
//
//   tasks/<id>/reference/   the solved task (authored): source files whose
//                           step regions look like
//                             // @step <step-id> {"effort": 5, "after": ["other-step"], "todo": "what to write"}
//                             ...code...
//                             // @end
//                           plus README.md, package.json and checks/ (visible tests)
//   tasks/<id>/workspace/   generated: the reference with every step region
//                           emptied down to a TODO, plus .demo-plan.json
//   tasks/<id>/plan.json    generated: the reference plan (same as .demo-plan.json)
//
// The task's difficulty and instruction come from benchmark.yaml.
//
//   node benchmarks/fanout-mini/tools/build-tasks.mjs          rewrite the generated files
//   node benchmarks/fanout-mini/tools/build-tasks.mjs --check  exit 1 when they are out of date
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const STEP_OPEN = /^([ \t]*)\/\/ @step ([a-z0-9][a-z0-9-]*)(?: (\{.*\}))?[ \t]*$/;
const STEP_CLOSE = /^[ \t]*\/\/ @end[ \t]*$/;

function walk(dir, base = dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...walk(path, base));
    else out.push(relative(base, path).split('\\').join('/'));
  }
  return out;
}

/** Splits a reference file into its step regions and the starter text (regions emptied to a TODO). */
export function splitReference(file, text) {
  const lines = text.split('\n');
  const steps = [];
  const starter = [];
  for (let i = 0; i < lines.length; i++) {
    const open = STEP_OPEN.exec(lines[i]);
    if (!open) {
      if (lines[i].includes('// @step') || STEP_CLOSE.test(lines[i])) throw new Error(`${file}:${i + 1}: malformed step marker`);
      starter.push(lines[i]);
      continue;
    }
    const [, indent, id, json] = open;
    const meta = json ? JSON.parse(json) : {};
    const body = [];
    let j = i + 1;
    for (; j < lines.length && !STEP_CLOSE.test(lines[j]); j++) {
      if (STEP_OPEN.test(lines[j])) throw new Error(`${file}:${j + 1}: nested step`);
      body.push(lines[j]);
    }
    if (j >= lines.length) throw new Error(`${file}:${i + 1}: step ${id} has no // @end`);
    if (typeof meta.effort !== 'number' || meta.effort < 1) throw new Error(`${file}:${i + 1}: step ${id} needs an effort >= 1`);
    steps.push({ id, file, fragment: body.join('\n'), dependsOn: meta.after ?? [], effort: meta.effort, summary: meta.todo ?? `implement ${id}` });
    starter.push(`${indent}// @step ${id}`, `${indent}// TODO: ${meta.todo ?? `implement ${id}`}`, `${indent}// @end`);
    i = j;
  }
  return { steps, starter: starter.join('\n') };
}

export function buildTask(taskDir, meta) {
  const refDir = join(taskDir, 'reference');
  const files = new Map();
  const steps = [];
  for (const file of walk(refDir)) {
    const text = readFileSync(join(refDir, file), 'utf8');
    if (file.endsWith('.js') && text.includes('// @step')) {
      const split = splitReference(file, text);
      steps.push(...split.steps);
      files.set(file, split.starter);
    } else {
      files.set(file, text);
    }
  }
  const ids = new Set();
  for (const step of steps) {
    if (ids.has(step.id)) throw new Error(`${taskDir}: duplicate step id ${step.id}`);
    ids.add(step.id);
  }
  for (const step of steps) for (const dep of step.dependsOn) if (!ids.has(dep)) throw new Error(`${taskDir}: step ${step.id} depends on unknown ${dep}`);
  const plan = {
    schema: 1,
    task: meta.id,
    difficulty: meta.difficulty,
    instruction: meta.instruction.trim(),
    checks: existsSync(join(refDir, 'checks')) ? 'checks' : null,
    steps,
  };
  const planText = `${JSON.stringify(plan, null, 2)}\n`;
  files.set('.demo-plan.json', planText);
  return { plan: planText, workspace: files };
}

function main() {
  const check = process.argv.includes('--check');
  const manifest = parseYaml(readFileSync(join(root, 'benchmark.yaml'), 'utf8'));
  const stale = [];
  for (const suite of manifest.suites) {
    for (const task of suite.tasks) {
      const taskDir = join(root, 'tasks', task.id);
      const built = buildTask(taskDir, task);
      const wsDir = join(taskDir, 'workspace');
      const wanted = new Map([[join(taskDir, 'plan.json'), built.plan]]);
      for (const [file, text] of built.workspace) wanted.set(join(wsDir, file), text);
      const present = existsSync(wsDir) ? walk(wsDir).map((f) => join(wsDir, f)) : [];
      for (const [path, text] of wanted) if (!existsSync(path) || readFileSync(path, 'utf8') !== text) stale.push(relative(root, path));
      for (const path of present) if (!wanted.has(path)) stale.push(`${relative(root, path)} (extra)`);
      if (!check) {
        rmSync(wsDir, { recursive: true, force: true });
        for (const [path, text] of wanted) {
          mkdirSync(dirname(path), { recursive: true });
          writeFileSync(path, text);
        }
      }
    }
  }
  if (check && stale.length > 0) {
    console.error(`fanout-mini: generated files out of date (run node benchmarks/fanout-mini/tools/build-tasks.mjs):\n  ${stale.join('\n  ')}`);
    process.exit(1);
  }
  if (!check) console.error(`fanout-mini: ${stale.length} generated file(s) updated`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
