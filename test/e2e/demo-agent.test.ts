import { trajectoryEventSchema, type TrajectoryEvent } from '#libs/contracts';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasTodo } from '../../apps/demo-agent/src/agent.js';
import { copyWorkspace, grade, taskPlan } from '../../apps/demo-agent/src/fanout-mini.js';
import { noticeProbability } from '../../apps/demo-agent/src/flows.js';
import { roll } from '../../apps/demo-agent/src/rng.js';
import { regionBody, sha256 } from '../../apps/demo-agent/src/workspace.js';
import { ROOT } from '../support/processes.js';

/*
 * The demo agent as the runner runs it: the compiled program, cwd = a copy
 * of the task workspace, events appended to FANOUT_EVENTS_FILE, in its own
 * process group (the runner kills the group at the deadline).
 */
const MAIN = join(ROOT, 'dist/apps/demo-agent/src/main.js');
const BIN = join(ROOT, 'apps/demo-agent/bin/fanout-demo-agent.js');
const cleanup: string[] = [];

interface Run {
  workspace: string;
  events: TrajectoryEvent[];
  code: number | null;
  pid: number;
}

function readEvents(file: string): TrajectoryEvent[] {
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line, i) => {
      const parsed = trajectoryEventSchema.safeParse(JSON.parse(line));
      if (!parsed.success) throw new Error(`event ${i} is invalid: ${parsed.error.message}\n${line}`);
      return parsed.data;
    });
}

function startAgent(task: string, mode: 'concurrent' | 'sequential', seed: number, env: Record<string, string> = {}, entry = MAIN) {
  const workspace = copyWorkspace(task);
  const dir = mkdtempSync(join(tmpdir(), 'fanout-demo-events-'));
  cleanup.push(workspace, dir);
  const eventsFile = join(dir, 'events.jsonl');
  const child = spawn(process.execPath, [entry], {
    cwd: workspace,
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      ...process.env,
      FANOUT_WORKSPACE: workspace,
      FANOUT_EVENTS_FILE: eventsFile,
      FANOUT_MODE: mode,
      FANOUT_SEED: String(seed),
      FANOUT_EXECUTION_ID: `test-${task}-${mode}-${seed}`,
      DEMO_UNIT_MS: '5',
      ...env,
    },
  });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, workspace, eventsFile, exited, stderr: () => stderr };
}

async function runAgent(task: string, mode: 'concurrent' | 'sequential', seed: number, env: Record<string, string> = {}, entry = MAIN): Promise<Run> {
  const started = startAgent(task, mode, seed, env, entry);
  const code = await started.exited;
  if (code !== 0) throw new Error(`demo agent exited with ${code}:\n${started.stderr()}`);
  return { workspace: started.workspace, events: readEvents(started.eventsFile), code, pid: started.child.pid! };
}

const ms = (iso: string) => Date.parse(iso);

/** Pids of live (not zombie) processes in a process group, from /proc (Linux); [] elsewhere. */
function liveInGroup(pgid: number): number[] {
  if (!existsSync('/proc/self/stat')) return [];
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid && fields[0] !== 'Z') out.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** Sub-agent spans [start, end) from agent.start / agent.end. */
function spans(events: TrajectoryEvent[]) {
  const out = new Map<string, { start: number; end: number | null }>();
  for (const e of events) {
    if (e.type === 'agent.start' && e.agentId !== 'main') out.set(e.agentId, { start: ms(e.time), end: null });
    if (e.type === 'agent.end' && out.has(e.agentId)) out.get(e.agentId)!.end = ms(e.time);
  }
  return out;
}

function peakOverlap(events: TrajectoryEvent[]): number {
  const points = [...spans(events).values()].flatMap((s) => [
    [s.start, 1],
    [s.end ?? Infinity, -1],
  ]);
  points.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let active = 0;
  let peak = 0;
  for (const [, d] of points) peak = Math.max(peak, (active += d));
  return peak;
}

function totalTokens(events: TrajectoryEvent[]): number {
  return events.reduce((sum, e) => (e.type === 'model.call' ? sum + e.usage.inputTokens + e.usage.outputTokens : sum), 0);
}

/** What must not change between two runs with the same seed (times and durations may). */
function decisions(events: TrajectoryEvent[]): unknown[] {
  return events.map((e) => {
    const { time: _time, ...rest } = e as TrajectoryEvent & { durationMs?: number };
    if ('durationMs' in rest) delete (rest as { durationMs?: number }).durationMs;
    return rest;
  });
}

beforeAll(() => {
  if (!existsSync(MAIN)) throw new Error('dist/apps/demo-agent is missing: run `node scripts/build.mjs` (npm test does) before these tests');
});

afterAll(() => {
  for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });
});

describe('demo agent, sequential', () => {
  it('walks the plan alone: valid events, real files, the reference result when it makes no mistake', async () => {
    const run = await runAgent('csv', 'sequential', 3, { DEMO_MISTAKE_SCALE: '0' }, BIN);
    const { events } = run;
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
    expect(events[0]).toMatchObject({ type: 'agent.start', agentId: 'main', parentAgentId: null });
    expect(events.at(-1)).toMatchObject({ type: 'agent.end', agentId: 'main', status: 'ok' });
    expect(new Set(events.map((e) => e.agentId))).toEqual(new Set(['main']));
    const calls = events.filter((e) => e.type === 'model.call');
    expect(calls.length).toBeGreaterThan(taskPlan('csv').steps.length);
    for (const call of calls) expect(call).toMatchObject({ provider: 'fanout', model: 'fanout/demo-agent', usage: { style: 'openai' } });
    // Input grows with the context.
    expect(calls.at(-1)!.usage.inputTokens).toBeGreaterThan(calls[0].usage.inputTokens);
    expect(events.some((e) => e.type === 'tool.call' && e.kind === 'shell' && e.command?.includes('--test'))).toBe(true);
    // The last file.write of each path is what is on disk.
    const last = new Map<string, string>();
    for (const e of events) if (e.type === 'file.write') last.set(e.path, e.sha256!);
    for (const [path, sha] of last) expect(sha256(readFileSync(join(run.workspace, path), 'utf8')), path).toBe(sha);
    const result = await grade(run.workspace, 'csv');
    expect(result.failed).toBe(0);
    expect(result.passed).toBeGreaterThan(0);
  });

  it('gives the same decisions for the same seed', async () => {
    const [a, b] = await Promise.all([runAgent('json-pointer', 'sequential', 5), runAgent('json-pointer', 'sequential', 5)]);
    expect(decisions(b.events)).toEqual(decisions(a.events));
    expect(readFileSync(join(b.workspace, 'src/pointer.js'), 'utf8')).toBe(readFileSync(join(a.workspace, 'src/pointer.js'), 'utf8'));
  });

  it('makes seeded mistakes: some seed writes a wrong fragment, and a different seed decides differently', async () => {
    const runs = await Promise.all([1, 2, 3, 4].map((seed) => runAgent('text-diff', 'sequential', seed, { DEMO_MISTAKE_SCALE: '4' })));
    const outcomes = await Promise.all(runs.map((r) => grade(r.workspace, 'text-diff')));
    expect(outcomes.some((o) => o.failed > 0)).toBe(true);
    expect(new Set(runs.map((r) => readFileSync(join(r.workspace, 'src/hunks.js'), 'utf8') + readFileSync(join(r.workspace, 'src/lcs.js'), 'utf8'))).size).toBeGreaterThan(1);
  });
});

describe('demo agent, concurrent', () => {
  it('spawns real sub-agents whose spans overlap, each started by a spawn tool call of the main agent', async () => {
    const run = await runAgent('date-lite', 'concurrent', 7, { DEMO_UNIT_MS: '10', DEMO_FANOUT_WIDTH: '4' });
    const { events } = run;
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
    const spawns = events.filter((e) => e.type === 'tool.call' && e.kind === 'spawn' && e.agentId === 'main');
    const starts = events.filter((e) => e.type === 'agent.start' && e.agentId !== 'main');
    expect(starts.length).toBe(4);
    expect(spawns.length).toBe(4);
    for (const start of starts) {
      expect(start).toMatchObject({ parentAgentId: 'main' });
      expect(spawns.map((s) => (s.type === 'tool.call' ? s.toolCallId : null))).toContain(start.type === 'agent.start' ? start.spawnedByToolCallId : null);
      expect(start.agentId).toMatch(/^sub-\d+$/);
    }
    for (const span of spans(events).values()) expect(span.end).not.toBeNull();
    expect(peakOverlap(events)).toBeGreaterThanOrEqual(2);
    expect(events.at(-1)).toMatchObject({ type: 'agent.end', agentId: 'main', status: 'ok' });
    // Sub-agents write into the shared workspace.
    expect(events.some((e) => e.type === 'file.write' && e.agentId.startsWith('sub-'))).toBe(true);
    // Every sub-agent pays for its own context: more tokens than working alone.
    const alone = await runAgent('date-lite', 'sequential', 7, { DEMO_UNIT_MS: '10' });
    expect(totalTokens(events)).toBeGreaterThan(totalTokens(alone.events));
  });

  it('edits the file as it is, unless it rewrites it whole: only rewrites lose writes', async () => {
    const run = await runAgent('textwrap', 'concurrent', 1, { DEMO_MISTAKE_SCALE: '0', DEMO_UNIT_MS: '20', DEMO_FANOUT_WIDTH: '3', DEMO_REWRITE: '0' });
    expect(run.events.some((e) => e.type === 'tool.call' && e.command?.startsWith('write '))).toBe(false);
    expect(hasTodo(readFileSync(join(run.workspace, 'src/textwrap.js'), 'utf8'))).toBe(false);
    expect((await grade(run.workspace, 'textwrap')).failed).toBe(0);
  });

  it('gives the same decisions for the same seed (no shared files, no mistakes: nothing left to timing)', async () => {
    const env = { DEMO_MISTAKE_SCALE: '0', DEMO_UNIT_MS: '10' };
    const [a, b] = await Promise.all([runAgent('csv', 'concurrent', 11, env), runAgent('csv', 'concurrent', 11, env)]);
    const edits = (run: Run) =>
      [...new Set(run.events.map((e) => e.agentId))].sort().map((agent) => [agent, run.events.filter((e) => e.agentId === agent && e.type === 'tool.call' && (e.kind === 'edit' || e.kind === 'spawn')).map((e) => (e.type === 'tool.call' ? e.command : ''))]);
    expect(edits(b)).toEqual(edits(a));
    expect(edits(a).length).toBe(3);
  });

  it('loses a write when two sub-agents edit one file at once, and the main agent does not notice', async () => {
    // textwrap: three independent trees in src/textwrap.js, so three sub-agents
    // read-modify-write the same file, here always rewriting it whole from
    // what they read before thinking. Pick a seed whose integration review
    // passes over the file (the notice roll is seeded), and no mistakes.
    const file = 'src/textwrap.js';
    const seed = [...Array(200).keys()].find((s) => roll(s, 'textwrap', 'notice', file) >= noticeProbability(3, true) && roll(s, 'textwrap', 'syntax-check', 'split-words') >= 0.3)!;
    const run = await runAgent('textwrap', 'concurrent', seed, { DEMO_MISTAKE_SCALE: '0', DEMO_UNIT_MS: '50', DEMO_FANOUT_WIDTH: '3', DEMO_REWRITE: '1' });
    const plan = taskPlan('textwrap');
    const final = readFileSync(join(run.workspace, file), 'utf8');
    const lost = plan.steps.filter((s) => /^\s*\/\/ TODO/.test(regionBody(final, s.id) ?? ''));
    expect(lost.length).toBeGreaterThan(0);
    // ...although a sub-agent did write each of them.
    for (const step of lost) {
      expect(run.events.some((e) => e.type === 'tool.call' && e.kind === 'edit' && e.agentId.startsWith('sub-') && e.command === `write ${file} (${step.id})`), step.id).toBe(true);
    }
    expect((await grade(run.workspace, 'textwrap')).failed).toBeGreaterThan(0);
    // Alone, with the same seed, nothing is lost.
    const alone = await runAgent('textwrap', 'sequential', seed, { DEMO_MISTAKE_SCALE: '0', DEMO_REWRITE: '1' });
    expect(hasTodo(readFileSync(join(alone.workspace, file), 'utf8'))).toBe(false);
    expect((await grade(alone.workspace, 'textwrap')).failed).toBe(0);
  });

  it('stops waiting and returns early when the remaining budget looks short (premature termination)', async () => {
    const deadline = new Date(Date.now() + 3000).toISOString();
    const started = Date.now();
    const run = await runAgent('date-lite', 'concurrent', 2, { DEMO_UNIT_MS: '40', FANOUT_DEADLINE: deadline });
    expect(Date.now()).toBeLessThan(Date.parse(deadline) + 500);
    expect(Date.now() - started).toBeLessThan(3500);
    const { events } = run;
    expect(events.some((e) => e.type === 'message' && e.agentId === 'main' && e.text.startsWith('Running out of time'))).toBe(true);
    expect(events.filter((e) => e.type === 'agent.end' && e.agentId.startsWith('sub-') && e.status === 'killed').length).toBeGreaterThan(0);
    expect(events.at(-1)).toMatchObject({ type: 'agent.end', agentId: 'main', status: 'ok' });
    // Some work is in the workspace, some is not: unmerged.
    expect(hasTodo(readFileSync(join(run.workspace, 'src/format.js'), 'utf8'))).toBe(true);
  });

  it('leaves the sub-agents partial work behind when the runner kills the process group at the deadline', async () => {
    const agent = startAgent('date-lite', 'concurrent', 4, { DEMO_UNIT_MS: '40' });
    // Wait until the sub-agents have written something, then kill the group as the runner does.
    for (let i = 0; i < 200; i++) {
      const writes = readEvents(agent.eventsFile).filter((e) => e.type === 'file.write' && e.agentId.startsWith('sub-'));
      if (writes.length >= 3) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    process.kill(-agent.child.pid!, 'SIGKILL');
    await agent.exited;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(liveInGroup(agent.child.pid!)).toEqual([]);
    const events = readEvents(agent.eventsFile);
    const open = [...spans(events).entries()].filter(([, s]) => s.end === null);
    expect(open.length).toBeGreaterThan(0);
    expect(events.some((e) => e.type === 'agent.end' && e.agentId === 'main')).toBe(false);
    const plan = taskPlan('date-lite');
    const bodies = plan.steps.map((s) => regionBody(readFileSync(join(agent.workspace, s.file), 'utf8'), s.id) ?? '');
    const written = bodies.filter((b) => !/^\s*\/\/ TODO/.test(b)).length;
    expect(written).toBeGreaterThan(0);
    expect(written).toBeLessThan(plan.steps.length);
    const result = await grade(agent.workspace, 'date-lite');
    expect(result.total).toBe(14);
    expect(result.failed).toBeGreaterThan(0);
  });

  it('can have an independent checker verify the result', async () => {
    const run = await runAgent('csv', 'concurrent', 9, { DEMO_CHECKER: 'on', DEMO_MISTAKE_SCALE: '6', DEMO_UNIT_MS: '5' });
    const checker = run.events.find((e) => e.type === 'agent.start' && e.name?.startsWith('checker'));
    expect(checker).toMatchObject({ parentAgentId: 'main' });
    expect(run.events.some((e) => e.type === 'tool.call' && e.agentId === checker!.agentId && e.kind === 'shell')).toBe(true);
    expect(run.events.some((e) => e.type === 'agent.end' && e.agentId === checker!.agentId && e.status === 'ok')).toBe(true);
  });
});
