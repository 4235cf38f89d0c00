import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/free-port.js';
import { requireBuild, runCli, startProcess, type Started } from '../support/processes.js';

/** Issue 4's session, from the CLI alone: register, plan, create, launch, list. */
describe('planning a study from the CLI', () => {
  let env: Record<string, string>;
  let home: string;
  let api: Started;

  beforeAll(async () => {
    requireBuild();
    home = await mkdtemp(join(tmpdir(), 'fanout-campaign-cli-'));
    const port = String(await freePort());
    env = { FANOUT_HOME: home, FANOUT_PG_PORT: String(await freePort()), PORT: port, DATABASE_URL: '', FANOUT_SCHEDULER: 'off', FANOUT_DEMO: 'off', FANOUT_API: `http://127.0.0.1:${port}`, FANOUT_API_KEY: '', FANOUT_PASSWORD: 'a long password' };
    await runCli(['user', 'create', '--email', 'lab@example.test'], env);
    await runCli(['org', 'create', '--name', 'Lab', '--owner', 'lab@example.test', '--slug', 'lab'], env);
    env.FANOUT_API_KEY = JSON.parse((await runCli(['keys', 'create', '--org', 'lab', '--name', 'ci', '--role', 'admin', '--json'], env)).stdout).key;
    api = await startProcess(['dist/apps/api/src/main.js'], env, 'fanout api listening');
  });
  afterAll(async () => {
    api?.child.kill('SIGINT');
    await api?.exited;
    await rm(home, { recursive: true, force: true });
  });

  it('registers a benchmark and an agent config with two modes', async () => {
    const bench = await runCli(['benchmark', 'register', 'examples/benchmark.yaml'], env);
    expect(bench.code).toBe(0);
    expect(bench.stdout).toContain('registered: repo-rebuild 1.0.0 (public), 12 tasks');
    expect((await runCli(['benchmark', 'register', 'examples/benchmark.yaml'], env)).stdout).toContain('already registered (no change)');
    const agent = await runCli(['agent', 'register', 'examples/agent.yaml'], env);
    expect(agent.stdout).toMatch(/registered: codex-gpt5 v1 .*modes concurrent, sequential/);
  });

  it('plans: the sample table, the execution count and the estimate basis', async () => {
    const plan = await runCli(['campaign', 'plan', 'examples/campaign.yaml'], env);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toMatch(/repo-rebuild 1\.0\.0 \/ python\s+20\.0%\s+medium\s+3\s+1/);
    expect(plan.stdout).toContain('executions: 24 = 1 agent(s) x 2 mode(s) [concurrent, sequential] x 4 task(s) x 3 repetition(s)');
    expect(plan.stdout).toContain('no price for model openai/gpt-5');
  });

  it('creates and launches, then lists with progress', async () => {
    const created = await runCli(['--json', 'campaign', 'create', 'examples/campaign.yaml', '--launch'], env);
    expect(created.code).toBe(0);
    const campaign = JSON.parse(created.stdout);
    expect(campaign).toMatchObject({ status: 'RUNNING', executionCount: 24, progress: { queued: 24, total: 24 } });
    const list = await runCli(['campaign', 'list'], env);
    expect(list.stdout).toMatch(new RegExp(`${campaign.id}\\s+Dynamic concurrency on Repo Rebuild\\s+running\\s+24\\s+0\\s+0\\s+0\\s+24\\s+\\$250\\.00`));
  });

  it('reports a bad manifest by file line and path, with exit code 1', async () => {
    const res = await runCli(['benchmark', 'register', 'test/fixtures/manifests/bad-benchmark.yaml'], env);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('BAD_USER_INPUT');
    expect(res.stderr).toMatch(/\d+: suites\[0\]\.tasks\[0\]\.difficulty: expected easy\|medium\|hard, got "HARD"/);
  });
});
