import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/free-port.js';
import { ROOT, requireBuild, startProcess, type Started } from '../support/processes.js';

/**
 * Whether any process of the group is alive. Read from /proc, not kill(0):
 * a killed process whose parent died stays a zombie here (this machine's init
 * does not reap), and kill(0) still finds zombies.
 */
const groupAlive = (pgid: number) =>
  readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .some((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return Number(fields[2]) === pgid && fields[0] !== 'Z';
      } catch {
        return false;
      }
    });

/**
 * A runner killed with SIGKILL is an infrastructure failure: its agent (a
 * process tree that never stops on its own and ignores SIGTERM) is killed,
 * and the execution is retried and completes.
 */
describe('a runner crash', () => {
  let home: string;
  let api: Started;
  let url: string;
  let token: string;

  beforeAll(async () => {
    requireBuild();
    home = await mkdtemp(join(tmpdir(), 'fanout-runner-crash-'));
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    api = await startProcess(
      ['dist/apps/api/src/main.js'],
      { FANOUT_HOME: home, PORT: String(port), FANOUT_PG_PORT: String(await freePort()), DATABASE_URL: '', FANOUT_DEMO: 'off', FANOUT_RETRY_BACKOFF_SECONDS: '0' },
      /fanout api listening/,
    );
    const signUp = await gql('mutation { signUp(input: {email: "crash@example.test", password: "a long password", name: "C"}) { accessToken } }');
    token = signUp.signUp.accessToken;
  });
  afterAll(async () => {
    api.child.kill('SIGINT');
    await api.exited;
    await rm(home, { recursive: true, force: true });
  });

  async function gql(query: string, variables: Record<string, unknown> = {}) {
    const res = await fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify({ query, variables }) });
    const body = (await res.json()) as { data: any; errors?: unknown };
    if (body.errors) throw new Error(JSON.stringify(body.errors));
    return body.data;
  }

  it('is retried as infrastructure, and its orphaned agent is stopped', async () => {
    const task = join(ROOT, 'test/fixtures/runner-task');
    await gql('mutation($m: JSONObject!, $d: String) { registerBenchmark(input: {manifest: $m}, sourceDir: $d) { created } }', {
      d: task,
      m: {
        id: 'forever', name: 'Forever', version: '1',
        suites: [{ id: 's', name: 'S', tasks: [{ id: 't', difficulty: 'easy', instruction: 'x', workspace: 'workspace', tests: 'tests', grader: { command: ['node', join(ROOT, 'test/fixtures/graders/grade.js'), 'json'], format: 'json' }, timeBudgetMinutes: 0.25 }] }],
      },
    });
    await gql('mutation($m: JSONObject!) { createAgentConfig(input: {manifest: $m}) { created } }', {
      m: { name: 'forever', scaffold: 'custom', model: 'fanout/demo-agent', command: ['node', join(ROOT, 'test/fixtures/agents/spawn-forever.js')], modes: { sequential: {} } },
    });
    const campaign = (await gql('mutation($m: JSONObject!) { createCampaign(input: {manifest: $m}) { id } }', {
      m: { name: 'crash', agents: [{ config: 'forever' }], modes: ['sequential'], benchmarks: [{ id: 'forever', fraction: 1 }], budgetUsd: 1 },
    })).createCampaign.id;
    await gql('mutation($id: ID!) { launchCampaign(id: $id) { status } }', { id: campaign });

    // The runner of attempt 1, once its agent tree is up.
    let victim: { dir: string; runner: number; agent: number } | undefined;
    for (let i = 0; i < 600 && !victim; i++) {
      for (const name of existsSync(join(home, 'work')) ? readdirSync(join(home, 'work')) : []) {
        const dir = join(home, 'work', name);
        const pids = join(dir, 'workspace', 'pids.txt');
        if (name.endsWith('-1') && existsSync(join(dir, 'agent.pgid')) && existsSync(pids) && readFileSync(pids, 'utf8').trim().split('\n').length >= 4) {
          victim = { dir, runner: Number(readFileSync(join(dir, 'runner.pid'), 'utf8')), agent: Number(readFileSync(join(dir, 'agent.pgid'), 'utf8')) };
        }
      }
      if (!victim) await new Promise((r) => setTimeout(r, 50));
    }
    expect(victim).toBeDefined();
    expect(groupAlive(victim!.agent)).toBe(true);
    process.kill(victim!.runner, 'SIGKILL');
    // The agent tree never ends by itself, so only the executor can have ended it.
    for (let i = 0; i < 100 && groupAlive(victim!.agent); i++) await new Promise((r) => setTimeout(r, 100));
    expect(groupAlive(victim!.agent)).toBe(false);

    // Attempt 2 runs into its 15 s deadline (the tree never ends) and is graded: a result, on the retry.
    let execution: any;
    for (let i = 0; i < 240; i++) {
      execution = (await gql('query($f: ExecutionFilterInput) { executions(filter: $f) { nodes { status attempt outcome } } }', { f: { campaignId: campaign } })).executions.nodes[0];
      if (execution.status === 'COMPLETED') break;
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(execution).toEqual({ status: 'COMPLETED', attempt: 2, outcome: 'completed' });
  }, 4 * 60_000);
});
