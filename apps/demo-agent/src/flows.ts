import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Agent, type StepWrite } from './agent.js';
import type { DemoConfig } from './config.js';
import { partition, topoOrder, type Plan, type PlanStep } from './plan.js';
import { sha256 } from './workspace.js';

/** Attempt numbers: each keys its own seeded mistake roll. */
const ATTEMPT = { first: 0, redo: 1, integrationFix: 2, checkerFix: 3, finalRedo: 4 } as const;

/** How likely the checker is to spot a region that differs from what it would have written. */
export const CHECKER_CATCH = 0.7;

/**
 * How likely the main agent is to look closely at one file its sub-agents
 * wrote, when integrating: its attention is spread over every sub-agent's
 * report, so the chance falls with the fan-out. A file a sub-agent reported
 * failing, or any file when the integration test run fails, is twice as likely.
 */
export function noticeProbability(fanOut: number, suspicious: boolean): number {
  const base = Math.min(1, 1 / Math.max(1, fanOut) + 0.1);
  return Math.min(1, suspicious ? 2 * base : base);
}

const MAIN_JS = fileURLToPath(new URL('./main.js', import.meta.url));
/** A guess at one visible test run, used before any was measured. */
const CHECK_RUN_GUESS_MS = 700;

export interface SubReport {
  agentId: string;
  writes: StepWrite[];
  failingFiles: string[];
}

export interface CheckerReport {
  agentId: string;
  findings: string[];
}

const unique = <T>(list: T[]) => [...new Set(list)];
const filesOf = (steps: PlanStep[]) => unique(steps.map((s) => s.file));

// ---------------------------------------------------------------- sequential

/** One agent walks the whole plan in dependency order. */
export async function runSequential(cfg: DemoConfig, plan: Plan): Promise<void> {
  const main = new Agent('main', cfg, plan);
  onTerm(() => main.end('killed'));
  main.start(null, null, 'main');
  main.message('user', plan.instruction);
  await main.orient([...filesOf(plan.steps), ...main.checksFor(null)], 1, 3);
  await main.think(2, 150 + 20 * plan.steps.length);
  await main.walk(topoOrder(plan.steps));
  await finalCheck(main);
  main.message('assistant', `Done: ${plan.steps.length} steps written.`);
  main.end('ok');
  main.close();
}

/** Runs every visible test; on failure, redoes the agent's last step once and runs them again. */
async function finalCheck(agent: Agent): Promise<void> {
  const all = agent.checksFor(null);
  if (all.length === 0) return;
  const result = await agent.runChecks(all);
  if (result.fail > 0 && agent.lastStep) {
    await agent.doStep(agent.lastStep, ATTEMPT.finalRedo);
    await agent.runChecks(all);
  }
}

// ---------------------------------------------------------------- concurrent

interface Running {
  agentId: string;
  child: ChildProcess;
  report: unknown;
  done: boolean;
  closed: Promise<void>;
}

function spawnAgent(main: Agent, agentId: string, role: 'sub' | 'checker', steps: PlanStep[]): Running {
  const started = Date.now();
  const toolCallId = main.log.callId();
  const child = spawn(process.execPath, [MAIN_JS], {
    cwd: main.cfg.workspace,
    env: { ...process.env, DEMO_ROLE: role, DEMO_AGENT_ID: agentId, DEMO_PARENT_CALL_ID: toolCallId, DEMO_STEPS: steps.map((s) => s.id).join(',') },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const running: Running = { agentId, child, report: null, done: false, closed: Promise.resolve() };
  child.on('message', (message) => (running.report = message));
  running.closed = new Promise((resolve) =>
    child.on('close', () => {
      running.done = true;
      resolve();
    }),
  );
  const what = role === 'checker' ? 'verify the workspace independently' : steps.map((s) => s.id).join(', ');
  main.log.emit({ type: 'tool.call', toolCallId, kind: 'spawn', command: `spawn_agent ${agentId}: ${what}`, exitCode: 0, durationMs: Date.now() - started });
  main.context += 40;
  return running;
}

/**
 * Blocks on the sub-agents one wait at a time (a wait returns when one of
 * them finishes or after DEMO_WAIT_UNITS). Between waits the main agent looks
 * at the clock: when what is left of the budget looks shorter than what it
 * still has to do (`reserveMs`), it stops waiting ("stopped"). A deadline that
 * falls inside a wait kills everyone first: the runner grades what is there.
 */
async function waitFor(main: Agent, running: Running[], reserveMs: () => number): Promise<'done' | 'stopped'> {
  while (running.some((r) => !r.done)) {
    const started = Date.now();
    let timer: NodeJS.Timeout | undefined;
    const slice = new Promise<void>((resolve) => (timer = setTimeout(resolve, main.cfg.waitUnits * main.cfg.unitMs)));
    await Promise.race([slice, ...running.filter((r) => !r.done).map((r) => r.closed)]);
    clearTimeout(timer);
    const finished = running.filter((r) => r.done).map((r) => r.agentId);
    const toolCallId = main.log.callId();
    main.log.emit({ type: 'tool.call', toolCallId, kind: 'other', command: 'wait_agents', exitCode: 0, durationMs: Date.now() - started, output: `finished: ${finished.join(', ') || 'none'}` });
    main.context += 30;
    if (running.every((r) => r.done)) break;
    if (main.cfg.deadline !== null && main.cfg.deadline - Date.now() < reserveMs()) return 'stopped';
  }
  return 'done';
}

async function stopAll(running: Running[]): Promise<void> {
  for (const r of running) if (!r.done) r.child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([Promise.all(running.map((r) => r.closed)), new Promise<void>((resolve) => (timer = setTimeout(resolve, 1000)))]);
  clearTimeout(timer);
}

/**
 * The main agent plans, splits the plan (plan.ts `partition`), spawns one
 * sub-agent process per group, waits, then integrates: runs the tests, reads
 * the reports, re-applies the lost writes it notices, redoes what was
 * reported failing, does the join steps itself; optionally has a checker
 * sub-agent verify the result.
 */
export async function runConcurrent(cfg: DemoConfig, plan: Plan): Promise<void> {
  const main = new Agent('main', cfg, plan);
  const running: Running[] = [];
  onTerm(() => main.end('killed'));
  main.start(null, null, 'main');
  main.message('user', plan.instruction);
  await main.orient([...filesOf(plan.steps), ...main.checksFor(null)], 1, 3);
  const { groups, joins } = partition(plan.steps, cfg.width);
  await main.think(2 + Math.ceil(plan.steps.length / 4), 150 + 40 * plan.steps.length);
  groups.forEach((group, i) => running.push(spawnAgent(main, `sub-${i + 1}`, 'sub', group)));

  let checkRunMs = CHECK_RUN_GUESS_MS;
  const integrationMs = () => (6 + joins.reduce((sum, s) => sum + s.effort + 1, 0)) * cfg.unitMs + 2 * checkRunMs;
  if ((await waitFor(main, running, integrationMs)) === 'stopped') {
    const unmerged = running.filter((r) => !r.done).map((r) => r.agentId);
    main.message('assistant', `Running out of time: returning before merging ${unmerged.join(', ')}.`);
    await stopAll(running);
    main.end('ok');
    main.close();
    return;
  }

  // Integration: read the reports, run the tests when they can say
  // something, look into the files the sub-agents wrote (re-applying lost
  // writes, redoing what was reported failing), do the join steps, test.
  const reports = running.map((r) => r.report as SubReport | null).filter((r): r is SubReport => r !== null);
  for (const report of reports) main.context += 150 + 40 * report.writes.length;
  await main.think(3, 200);
  const all = main.checksFor(null);
  let started = Date.now();
  const integration = all.length > 0 && all.every((c) => main.ready(c)) ? await main.runChecks(all) : null;
  if (integration) checkRunMs = Date.now() - started;
  const stepById = new Map(plan.steps.map((s) => [s.id, s]));
  const reportedFailing = new Set(reports.flatMap((r) => r.failingFiles));
  const written = unique(reports.flatMap((r) => r.writes.map((w) => w.file))).sort();
  const fanOut = groups.length;
  for (const file of written) {
    const suspicious = reportedFailing.has(file) || (integration !== null && integration.fail > 0);
    if (main.decide('notice', file) >= noticeProbability(fanOut, suspicious)) continue;
    main.readFiles([file]);
    for (const report of reports) {
      const mine = report.writes.filter((w) => w.file === file);
      // The last write of each step by this sub-agent is what it reported.
      const last = new Map(mine.map((w) => [w.step, w]));
      const redone = new Set<string>();
      for (const w of last.values()) {
        const step = stepById.get(w.step)!;
        const body = main.currentBody(step);
        if (body === null || sha256(body) !== w.sha) {
          await main.doStep(step, ATTEMPT.integrationFix);
          redone.add(step.id);
        }
      }
      const lastInFile = mine.length > 0 ? mine[mine.length - 1].step : null;
      if (report.failingFiles.includes(file) && lastInFile !== null && !redone.has(lastInFile)) await main.doStep(stepById.get(lastInFile)!, ATTEMPT.integrationFix);
    }
  }
  if (joins.length > 0) await main.walk(joins);
  started = Date.now();
  await finalCheck(main);
  if (all.length > 0) checkRunMs = Math.max(checkRunMs, Date.now() - started);

  // Independent verification.
  const checkerMs = (8 + filesOf(plan.steps).length * 2) * cfg.unitMs + 2 * checkRunMs + integrationMs();
  const wantsChecker = main.decide('checker') < cfg.checker;
  if (wantsChecker && (cfg.deadline === null || cfg.deadline - Date.now() > checkerMs)) {
    const checker = spawnAgent(main, `sub-${groups.length + 1}`, 'checker', []);
    running.push(checker);
    const fixMs = () => 4 * cfg.unitMs + checkRunMs;
    if ((await waitFor(main, [checker], fixMs)) === 'stopped') {
      await stopAll([checker]);
    } else {
      const findings = (checker.report as CheckerReport | null)?.findings ?? [];
      main.context += 100 + 40 * findings.length;
      for (const id of findings) await main.doStep(stepById.get(id)!, ATTEMPT.checkerFix);
      if (findings.length > 0 && all.length > 0) await main.runChecks(all);
    }
  }
  main.message('assistant', `Done: ${groups.length} sub-agent(s), ${joins.length} step(s) integrated by the main agent.`);
  main.end('ok');
  main.close();
}

// ---------------------------------------------------------------- sub-agents

/** A sub-agent: a fresh context that re-reads the task, then walks its group. */
export async function runSubAgent(cfg: DemoConfig, plan: Plan, agentId: string, parentCallId: string | null, stepIds: string[]): Promise<void> {
  const agent = new Agent(agentId, cfg, plan);
  onTerm(() => agent.end('killed'));
  const byId = new Map(plan.steps.map((s) => [s.id, s]));
  const steps = topoOrder(stepIds.map((id) => byId.get(id)).filter((s): s is PlanStep => s !== undefined));
  agent.start('main', parentCallId, `worker ${agentId}`);
  agent.message('user', `Sub-task from the main agent: ${steps.map((s) => `${s.id} (${s.file}): ${s.summary ?? ''}`).join('; ')}`);
  const files = filesOf(steps);
  await agent.orient([...files, ...unique(files.flatMap((f) => agent.checksFor(f)))], 2, 2);
  const failing = await agent.walk(steps);
  const report: SubReport = { agentId, writes: agent.written, failingFiles: [...failing] };
  agent.message('assistant', `Wrote ${steps.map((s) => s.id).join(', ')}${failing.size ? `; checks still failing for ${[...failing].join(', ')}` : ''}.`);
  agent.end('ok');
  agent.close();
  await send(report);
}

/** The checker: re-reads the task, re-runs the tests, reviews every region against what it would have written. */
export async function runChecker(cfg: DemoConfig, plan: Plan, agentId: string, parentCallId: string | null): Promise<void> {
  const agent = new Agent(agentId, cfg, plan);
  onTerm(() => agent.end('killed'));
  agent.start('main', parentCallId, `checker ${agentId}`);
  agent.message('user', 'Verify the workspace independently: run the tests and review every step.');
  const files = filesOf(plan.steps);
  await agent.orient([...files, ...agent.checksFor(null)], 2, 2);
  const all = agent.checksFor(null);
  if (all.length > 0) await agent.runChecks(all);
  const findings: string[] = [];
  for (const file of files) {
    const steps = plan.steps.filter((s) => s.file === file);
    agent.readFiles([file]);
    await agent.think(1 + steps.length / 2, 60 * steps.length);
    for (const step of steps) {
      if (agent.currentBody(step) !== step.fragment && agent.decide('checker-catch', step.id) < CHECKER_CATCH) findings.push(step.id);
    }
  }
  agent.message('assistant', findings.length ? `Found problems in ${findings.join(', ')}.` : 'No problems found.');
  agent.end('ok');
  agent.close();
  await send({ agentId, findings } satisfies CheckerReport);
}

function send(message: unknown): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send) return resolve();
    process.send(message, () => {
      process.disconnect?.();
      resolve();
    });
  });
}

/** On SIGTERM (the main agent stopping early, or the runner): record the end, exit. */
function onTerm(record: () => void): void {
  process.once('SIGTERM', () => {
    try {
      record();
    } finally {
      process.exit(143);
    }
  });
}
