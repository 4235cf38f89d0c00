import type { ExecutionSpec } from '#libs/contracts';
import { spawn, execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runExecution } from '../../apps/runner/src/run-execution.js';
import { loadRunnerConfig } from '../../apps/runner/src/runner-config.js';
import { ROOT } from '../support/processes.js';
import { RunnerStandIn } from '../support/runner-stand-in.js';

const RUNNER = join(ROOT, 'dist/apps/runner/src/main.js');
const FIXTURES = join(ROOT, 'test/fixtures');
const TASK = join(FIXTURES, 'runner-task');
const agent = (name: string, ...args: string[]) => [process.execPath, join(FIXTURES, 'agents', name), ...args];
const grader = (...args: string[]) => [process.execPath, join(FIXTURES, 'graders/grade.js'), ...args];
const TOKEN = 'runner-token-0123456789-do-not-log';

let scratch: string;
const standIns: RunnerStandIn[] = [];

beforeAll(() => {
  if (!existsSync(RUNNER)) throw new Error(`${RUNNER} is missing: run \`node scripts/build.mjs\` first`);
  scratch = mkdtempSync(join(tmpdir(), 'fanout-runner-test-'));
});
afterEach(async () => {
  await Promise.all(standIns.splice(0).map((s) => s.close()));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface SpecOptions {
  command: string | string[];
  args?: string[];
  env?: Record<string, string>;
  grader?: ExecutionSpec['task']['grader'];
  budgetSeconds?: number;
  workspace?: string;
  tests?: string | null;
}

function makeSpec(o: SpecOptions): ExecutionSpec {
  return {
    executionId: randomUUID(),
    attempt: 1,
    campaignId: randomUUID(),
    mode: 'concurrent',
    repetition: 0,
    seed: 7,
    agent: { name: 'fixture', version: 1, model: 'fanout/demo-agent', command: o.command, env: { FIXTURE_ANSWER: '42', ...o.env }, args: o.args ?? [] },
    task: {
      benchmark: 'fixtures',
      benchmarkVersion: '1',
      suite: 'runner',
      id: 'answer',
      difficulty: 'easy',
      instruction: 'Write the answer to answer.txt.',
      workspace: o.workspace ?? join(TASK, 'workspace'),
      tests: o.tests === undefined ? join(TASK, 'tests') : o.tests,
      grader: o.grader ?? { command: grader('json'), format: 'json', reportPath: null },
      timeBudgetSeconds: o.budgetSeconds ?? 3,
    },
    heartbeatSeconds: 0.2,
  };
}

interface RunnerRun {
  code: number | null;
  stderr: string;
  logs: Record<string, unknown>[];
  standIn: RunnerStandIn;
  work: string;
  workspace: string;
}

/** Runs the compiled runner against a stand-in serving `spec`; `during` runs while it is running. */
async function runRunner(spec: ExecutionSpec, options: { setup?: (s: RunnerStandIn) => void; during?: (pid: number, s: RunnerStandIn, work: string) => Promise<void>; env?: Record<string, string> } = {}): Promise<RunnerRun> {
  const standIn = await RunnerStandIn.start(spec, TOKEN);
  standIns.push(standIn);
  options.setup?.(standIn);
  const work = join(mkdtempSync(join(scratch, 'run-')), 'work');
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    LANG: 'C.UTF-8',
    FANOUT_API: standIn.url,
    FANOUT_EXECUTION_ID: spec.executionId,
    FANOUT_RUNNER_TOKEN: TOKEN,
    FANOUT_WORK_DIR: work,
    FANOUT_RUNNER_LOG_LEVEL: 'debug',
    // The fixture trees ignore SIGTERM: every kill goes on to SIGKILL after this grace.
    FANOUT_RUNNER_KILL_GRACE_SECONDS: '0.5',
    ...options.env,
  };
  const child = spawn(process.execPath, [RUNNER], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  if (options.during) await options.during(child.pid!, standIn, work);
  const code = await exited;
  const logs = stderr
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { code, stderr, logs, standIn, work, workspace: join(work, 'workspace') };
}

const readJson = <T = Record<string, unknown>>(path: string) => JSON.parse(readFileSync(path, 'utf8')) as T;

/** Pids the spawn-forever agent's tree wrote, once all four are there. */
function treePids(workspace: string): number[] {
  const path = join(workspace, 'pids.txt');
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8').trim().split('\n').map((l) => Number(l.split(' ')[0]));
}

/** Alive and not a zombie waiting to be reaped by whichever init adopted it. */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^[ZX]$/.test(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0]!);
  } catch {
    return false;
  }
}

describe('fanout-runner (compiled, against a stand-in API)', () => {
  it('runs a well-behaved agent and grades it: env, args, events, hidden tests absent for the agent and present for the grader', async () => {
    const spec = makeSpec({ command: agent('solve.js'), args: ['--flag', 'two words'], env: { FROM_SPEC: 'yes' } });
    const run = await runRunner(spec);

    expect(run.code, run.stderr).toBe(0);
    expect(run.standIn.grades).toEqual([
      expect.objectContaining({ attempt: 1, testsPassed: 2, testsTotal: 2, resolved: true, agentEnd: 'exited', agentExitCode: 0, graderExitCode: 0 }),
    ]);
    expect(run.standIn.grades[0]!.graderOutputTail).toContain('grader: 2 of 2 passed');

    const saw = readJson<{ cwd: string; entries: string[]; testsExists: boolean; argv: string[]; env: Record<string, string> }>(join(run.workspace, 'agent-saw.json'));
    expect(saw.testsExists).toBe(false);
    expect(saw.entries).toEqual(['README.md', 'src']);
    expect(saw.cwd).toBe(run.workspace);
    expect(saw.argv).toEqual(['--flag', 'two words']);
    expect(saw.env).toMatchObject({
      FROM_SPEC: 'yes',
      FANOUT_EVENTS_FILE: join(run.work, 'events.ndjson'),
      FANOUT_WORKSPACE: run.workspace,
      FANOUT_TASK_INSTRUCTION: 'Write the answer to answer.txt.',
      FANOUT_MODE: 'concurrent',
      FANOUT_SEED: '7',
      FANOUT_EXECUTION_ID: spec.executionId,
    });
    expect(Object.keys(saw.env).filter((k) => !['PATH', 'HOME', 'LANG', 'FIXTURE_ANSWER', 'FROM_SPEC'].includes(k) && !k.startsWith('FANOUT_'))).toEqual([]);
    expect(Date.parse(saw.env.FANOUT_DEADLINE!)).toBeGreaterThan(Date.now() - 10_000);
    expect(JSON.stringify(saw.env)).not.toContain(TOKEN);
    expect(readFileSync(join(run.workspace, 'tests/expected.txt'), 'utf8')).toBe('42\n');

    expect(run.standIn.events.map((e) => e.id)).toEqual(['main-start', 'main-tool-0', 'main-tool-1', 'main-tool-2', 'main-write', 'main-end']);
    expect(new Set(run.standIn.heartbeats.map((h) => h.phase))).toEqual(new Set(['setup', 'agent', 'grading']));
    expect(run.stderr).not.toContain(TOKEN);
  });

  it('keeps hidden tests that live inside the workspace folder away from the agent, and extracts .tar.gz workspaces', async () => {
    const source = join(scratch, 'nested-task');
    cpSync(join(TASK, 'workspace'), source, { recursive: true });
    cpSync(join(TASK, 'tests'), join(source, 'hidden'), { recursive: true });
    const nested = await runRunner(makeSpec({ command: agent('solve.js'), workspace: source, tests: join(source, 'hidden') }));
    expect(nested.code, nested.stderr).toBe(0);
    expect(readJson<{ entries: string[] }>(join(nested.workspace, 'agent-saw.json')).entries).toEqual(['README.md', 'src']);
    expect(nested.standIn.grades[0]).toMatchObject({ resolved: true });

    const archive = join(scratch, 'workspace.tar.gz');
    execFileSync('tar', ['-czf', archive, '-C', join(TASK, 'workspace'), '.']);
    const fromArchive = await runRunner(makeSpec({ command: agent('solve.js'), workspace: archive }));
    expect(fromArchive.code, fromArchive.stderr).toBe(0);
    expect(readJson<{ entries: string[] }>(join(fromArchive.workspace, 'agent-saw.json')).entries).toEqual(['README.md', 'src']);
    expect(fromArchive.standIn.grades[0]).toMatchObject({ testsPassed: 2, testsTotal: 2, resolved: true });
  });

  it.each<[string, ExecutionSpec['task']['grader']]>([
    ['junit (report file)', { command: grader('junit', '--report', 'report.xml'), format: 'junit', reportPath: 'report.xml' }],
    ['tap (stdout)', { command: grader('tap'), format: 'tap', reportPath: null }],
    ['json (sh -c, report file)', { command: `"${process.execPath}" "${join(FIXTURES, 'graders/grade.js')}" json --report out/report.json`, format: 'json', reportPath: 'out/report.json' }],
  ])('grades with a %s grader end to end', async (_format, graderSpec) => {
    const good = await runRunner(makeSpec({ command: agent('solve.js'), grader: graderSpec }));
    expect(good.code, good.stderr).toBe(0);
    expect(good.standIn.grades[0]).toMatchObject({ testsPassed: 2, testsTotal: 2, resolved: true, graderExitCode: 0 });

    const wrong = await runRunner(makeSpec({ command: agent('solve.js'), env: { FIXTURE_ANSWER: '41' }, grader: graderSpec }));
    expect(wrong.code, wrong.stderr).toBe(0);
    expect(wrong.standIn.grades[0]).toMatchObject({ testsPassed: 1, testsTotal: 2, resolved: false, graderExitCode: 1 });
  });

  it('uploads every event exactly once while batch requests fail, before and after being stored', async () => {
    const spec = makeSpec({ command: agent('solve.js'), env: { FIXTURE_EVENTS: '1200', FIXTURE_BAD_EVENT: '1', FIXTURE_PAUSE_MS: '400' } });
    const run = await runRunner(spec, {
      setup: (s) => {
        s.fail('events', 1);
        s.fail('events', 2, { afterStoring: true });
      },
    });
    expect(run.code, run.stderr).toBe(0);

    const written = readFileSync(join(run.work, 'events.ndjson'), 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as { id: string }).id);
    const valid = written.filter((id) => id !== 'main-bad');
    expect(valid).toHaveLength(1 + 1200 + 2);
    expect(run.standIn.events.map((e) => e.id)).toEqual(valid);
    expect(run.standIn.rejected).toHaveLength(1);
    expect(run.logs.find((l) => l.msg === 'event rejected by the API')).toMatchObject({ eventId: 'main-bad', line: written.indexOf('main-bad') + 1 });
    expect(run.standIn.batches.filter((b) => b.status === 503)).toHaveLength(3);
    expect(Math.max(...run.standIn.batches.map((b) => b.lines))).toBeLessThanOrEqual(500);
    expect(run.standIn.grades).toHaveLength(1);
  });

  it('at the deadline kills the whole process tree, then still grades (agentEnd timeout)', async () => {
    const spec = makeSpec({ command: agent('spawn-forever.js'), budgetSeconds: 1 });
    const run = await runRunner(spec);
    expect(run.code, run.stderr).toBe(0);

    const pids = treePids(run.workspace);
    expect(pids).toHaveLength(4);
    expect(pids.filter(alive)).toEqual([]);
    expect(run.standIn.grades).toEqual([expect.objectContaining({ agentEnd: 'timeout', agentExitCode: null, testsPassed: 2, testsTotal: 2, resolved: true })]);
    expect(run.standIn.grades[0]!.wallSeconds).toBeGreaterThanOrEqual(1);
    expect(run.logs.find((l) => l.msg === 'agent ended')).toMatchObject({ processGroup: 'killed' });
    expect(run.standIn.events.map((e) => e.id).sort()).toEqual(['grandchild-start', 'main-start', 'sub-1-start', 'sub-2-start']);
  });

  it('when the main agent exits, kills the sub-agents it left behind before grading', async () => {
    const run = await runRunner(makeSpec({ command: agent('spawn-forever.js', '--exit'), budgetSeconds: 30 }));
    expect(run.code, run.stderr).toBe(0);
    expect(treePids(run.workspace).filter(alive)).toEqual([]);
    expect(run.standIn.grades).toEqual([expect.objectContaining({ agentEnd: 'exited', agentExitCode: 0, resolved: true })]);
    expect(run.standIn.grades[0]!.wallSeconds).toBeLessThan(20);
  });

  it.each([
    ['exits non-zero', agent('solve.js'), { FIXTURE_EXIT_CODE: '3' }, { agentEnd: 'exited', agentExitCode: 3 }],
    ['crashes (SIGSEGV)', agent('solve.js'), { FIXTURE_CRASH: 'SIGSEGV' }, { agentEnd: 'crashed', agentExitCode: null }],
    ['is killed (SIGKILL)', agent('solve.js'), { FIXTURE_CRASH: 'SIGKILL' }, { agentEnd: 'crashed', agentExitCode: null }],
    ['cannot be started', ['/nonexistent/agent'], {}, { agentEnd: 'exited', agentExitCode: 127, resolved: false }],
  ])('an agent that %s is graded as an agent failure, and the runner exits 0', async (_name, command, env, expected) => {
    const run = await runRunner(makeSpec({ command, env }));
    expect(run.code, run.stderr).toBe(0);
    expect(run.standIn.grades).toEqual([expect.objectContaining(expected)]);
  });

  it.each<[string, Partial<SpecOptions>, ((s: RunnerStandIn) => void) | undefined, RegExp]>([
    ['the spec endpoint answers 500 forever', {}, (s) => s.fail('spec', Infinity, { status: 500 }), /could not fetch the execution spec.*500/],
    ['the token is refused', {}, (s) => Object.assign(s, { token: 'another' }), /could not fetch the execution spec.*403/],
    ['the task workspace is missing', { workspace: '/nonexistent/workspace' }, undefined, /task workspace \/nonexistent\/workspace does not exist/],
    ['the grader report is unparseable', { grader: { command: grader('garbage'), format: 'json', reportPath: null } }, undefined, /json grader report: expected one JSON object.*received "this is not a report/],
    ['the grader writes no report file', { grader: { command: grader('json'), format: 'json', reportPath: 'missing.json' } }, undefined, /wrote no report at missing.json/],
    ['the grade is refused', {}, (s) => s.fail('grade', Infinity, { status: 400 }), /grade was not accepted.*400/],
  ])('exits 1 without a grade when %s (an infrastructure failure)', async (_name, options, setup, message) => {
    const run = await runRunner(makeSpec({ command: agent('solve.js'), ...options }), { setup });
    expect(run.code, run.stderr).toBe(1);
    expect(run.standIn.grades).toEqual([]);
    expect(run.logs.find((l) => l.level === 50)?.err).toMatch(message);
    expect(run.stderr).not.toContain(TOKEN);
  });

  it('stops the agent and posts no grade when a heartbeat answers cancel', async () => {
    const spec = makeSpec({ command: agent('spawn-forever.js'), budgetSeconds: 30 });
    let workspace = '';
    const run = await runRunner(spec, {
      during: async (_pid, standIn, work) => {
        workspace = join(work, 'workspace');
        standIn.cancel = (hb) => hb.phase === 'agent' && treePids(workspace).length === 4;
      },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(treePids(workspace)).toHaveLength(4);
    expect(treePids(workspace).filter(alive)).toEqual([]);
    expect(run.standIn.grades).toEqual([]);
    expect(run.standIn.heartbeats.some((h) => h.phase === 'grading')).toBe(false);
    expect(existsSync(join(workspace, 'tests'))).toBe(false);
    expect(run.standIn.events.map((e) => e.id)).toContain('main-start');
  });

  it('when stopped with SIGTERM, kills the agent tree and exits 1 without a grade', async () => {
    const spec = makeSpec({ command: agent('spawn-forever.js'), budgetSeconds: 30 });
    let workspace = '';
    const run = await runRunner(spec, {
      during: async (pid, standIn, work) => {
        workspace = join(work, 'workspace');
        await standIn.waitFor(() => treePids(workspace).length === 4);
        process.kill(pid, 'SIGTERM');
      },
    });
    expect(run.code).toBe(1);
    expect(treePids(workspace).filter(alive)).toEqual([]);
    expect(run.standIn.grades).toEqual([]);
  });

  it('exits 2 naming the variable when the environment is invalid, never echoing the token', async () => {
    const spec = makeSpec({ command: agent('solve.js') });
    const run = await runRunner(spec, { env: { FANOUT_API: 'ftp://example', FANOUT_EXECUTION_ID: 'not-a-uuid', FANOUT_WORK_DIR: '' } });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/FANOUT_API: expected an http:\/\/ or https:\/\/ base URL.*\(got "ftp:\/\/example"\)/);
    expect(run.stderr).toMatch(/FANOUT_EXECUTION_ID: expected the execution id \(a UUID\) \(got "not-a-uuid"\)/);
    expect(run.stderr).toMatch(/FANOUT_WORK_DIR: .*\(not set\)/);
    expect(run.stderr).not.toContain(TOKEN);
    expect(run.standIn.requests).toEqual([]);
  });

  it('stops a grader that hangs at its time limit and grades 0 of 0 (in process, with a short limit)', async () => {
    const spec = makeSpec({ command: agent('solve.js'), grader: { command: ['sh', '-c', 'echo "grading forever"; sleep 60'], format: 'json', reportPath: null } });
    const standIn = await RunnerStandIn.start(spec, TOKEN);
    standIns.push(standIn);
    const work = join(mkdtempSync(join(scratch, 'run-')), 'work');
    mkdirSync(work);
    const config = loadRunnerConfig({ FANOUT_API: standIn.url, FANOUT_EXECUTION_ID: spec.executionId, FANOUT_RUNNER_TOKEN: TOKEN, FANOUT_WORK_DIR: work, FANOUT_RUNNER_KILL_GRACE_SECONDS: '0.2' });
    const outcome = await runExecution(config, { graderTimeoutMs: 500 });
    expect(outcome.status).toBe('graded');
    expect(standIn.grades).toEqual([expect.objectContaining({ testsPassed: 0, testsTotal: 0, resolved: false, agentEnd: 'exited', graderExitCode: null, graderOutputTail: 'grading forever\n' })]);
  });
});
