import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeOf, signUp, startTestApi, type TestApi } from '../support/api.js';
import { CREATE, PLAN, REGISTER_AGENT, REGISTER_BENCHMARK, agentManifest, benchmarkManifest, campaignManifest } from '../support/manifests.js';

describe('catalog and campaigns', () => {
  let api: TestApi;
  let token: string;
  const gql = <T = any>(query: string, variables: Record<string, unknown> = {}) => api.gql<T>(query, variables, token);
  const rowCounts = async () =>
    (await api.db.dataSource.query(`SELECT (SELECT count(*) FROM campaigns)::int AS campaigns, (SELECT count(*) FROM executions)::int AS executions`))[0];

  beforeAll(async () => {
    api = await startTestApi();
    token = (await signUp(api, 'planner')).token;
    expect((await gql(REGISTER_BENCHMARK, { m: benchmarkManifest({ id: 'study', groups: [194, 261, 45], expectedTokens: 2_000_000 }) })).errors).toBeUndefined();
    expect((await gql(REGISTER_BENCHMARK, { m: benchmarkManifest() })).errors).toBeUndefined();
    expect((await gql(REGISTER_AGENT, { m: agentManifest() })).errors).toBeUndefined();
  });
  afterAll(() => api.close());

  it('registering the same manifest again is a no-op; changed content needs a new version', async () => {
    const again = await gql(REGISTER_BENCHMARK, { m: benchmarkManifest() });
    expect(again.data.registerBenchmark.created).toBe(false);
    const changed = benchmarkManifest();
    changed.suites[0]!.tasks[0]!.timeBudgetMinutes = 45;
    const conflict = await gql(REGISTER_BENCHMARK, { m: changed });
    expect(codeOf(conflict)).toBe('CONFLICT');
    expect(conflict.errors![0]!.extensions!.field).toBe('version');
    const v2 = await gql(REGISTER_BENCHMARK, { m: { ...changed, version: '1.1.0' } });
    expect(v2.data.registerBenchmark).toMatchObject({ created: true, benchmark: { version: '1.1.0', seq: 2, taskCount: 12 } });
    expect(v2.data.registerBenchmark.benchmark.groupSizes).toEqual([
      { difficulty: 'EASY', count: 4 },
      { difficulty: 'MEDIUM', count: 5 },
      { difficulty: 'HARD', count: 3 },
    ]);
  });

  it('agent configs: a changed manifest is version 2, the same one is a no-op; missing secrets are named', async () => {
    const m = agentManifest({ name: 'versioned', secrets: ['PROVIDER_KEY'] });
    const v1 = await gql(REGISTER_AGENT, { m });
    expect(v1.data.createAgentConfig).toMatchObject({ created: true, missingSecrets: ['PROVIDER_KEY'], agentConfig: { version: 1 } });
    expect((await gql(REGISTER_AGENT, { m })).data.createAgentConfig).toMatchObject({ created: false, agentConfig: { version: 1 } });
    const v2 = await gql(REGISTER_AGENT, { m: { ...m, model: 'fanout/other' } });
    expect(v2.data.createAgentConfig.agentConfig.version).toBe(2);
  });

  it('samples the study\'s Table 1: 20% of 194/261/45 is 39/52/9', async () => {
    const res = await gql(PLAN, { m: campaignManifest({ benchmark: 'study', fraction: 0.2 }) });
    expect(res.errors).toBeUndefined();
    expect(res.data.planCampaign.benchmarks[0].strata).toEqual([
      { difficulty: 'EASY', available: 194, sampled: 39 },
      { difficulty: 'MEDIUM', available: 261, sampled: 52 },
      { difficulty: 'HARD', available: 45, sampled: 9 },
    ]);
    expect(res.data.planCampaign.executionCount).toBe(100 * 2);
  });

  it('the same seed gives the same tasks on every run; another seed gives another sample', async () => {
    const tasksOf = async (seed: number) => {
      const created = await gql(CREATE, { m: campaignManifest({ benchmark: 'study', fraction: 0.2, seed, modes: ['sequential'] }) });
      const rows = await api.db.dataSource.query('SELECT task_key FROM executions WHERE campaign_id = $1 ORDER BY task_key', [created.data.createCampaign.id]);
      return rows.map((r: { task_key: string }) => r.task_key);
    };
    const a = await tasksOf(11);
    expect(a).toHaveLength(100);
    expect(await tasksOf(11)).toEqual(a);
    expect(await tasksOf(12)).not.toEqual(a);
  });

  it('createCampaign writes every agent x mode x task x repetition, queued, and counts progress', async () => {
    const created = await gql(CREATE, { m: campaignManifest({ repetitions: 2 }) });
    expect(created.data.createCampaign).toMatchObject({ status: 'CREATED', executionCount: 1 * 2 * 12 * 2, progress: { queued: 48, total: 48 } });
    const id = created.data.createCampaign.id;
    const page = await gql(
      'query($f: ExecutionFilterInput) { executions(filter: $f, first: 100) { totalCount nodes { mode difficulty status repetition task agentName } } }',
      { f: { campaignId: id, mode: 'concurrent', difficulty: 'HARD' } },
    );
    expect(page.errors).toBeUndefined();
    expect(page.data.executions.totalCount).toBe(3 * 2);
    expect(new Set(page.data.executions.nodes.map((n: { status: string }) => n.status))).toEqual(new Set(['QUEUED']));
  });

  it('launch, pause, resume and cancel follow the states; cancel cancels queued executions', async () => {
    const { id } = (await gql(CREATE, { m: campaignManifest() })).data.createCampaign;
    const act = (verb: string) => gql(`mutation($id: ID!) { ${verb}Campaign(id: $id) { status launchedAt progress { queued cancelled } } }`, { id });
    expect(codeOf(await act('pause'))).toBe('CONFLICT');
    expect((await act('launch')).data.launchCampaign.status).toBe('RUNNING');
    expect(codeOf(await act('launch'))).toBe('CONFLICT');
    expect((await act('pause')).data.pauseCampaign.status).toBe('PAUSED');
    expect((await act('resume')).data.resumeCampaign.status).toBe('RUNNING');
    const cancelled = await act('cancel');
    expect(cancelled.data.cancelCampaign).toMatchObject({ status: 'CANCELLED', progress: { queued: 0, cancelled: 24 } });
    expect(codeOf(await act('resume'))).toBe('CONFLICT');
  });

  it('estimates from token hints at the model price, and refuses to launch when the low end is above the cap', async () => {
    // 20% sample = 100 tasks x 2 modes, 2M tokens each at the demo price (95% x $1 + 5% x $4 per MTok) = $2.30 each.
    const plan = await gql(PLAN, { m: campaignManifest({ benchmark: 'study', fraction: 0.2, budgetUsd: 100 }) });
    expect(plan.data.planCampaign.estimate).toMatchObject({ expectedUsd: 460, lowUsd: 230, highUsd: 920, basis: [{ source: 'hint', executions: 200 }] });
    expect(plan.data.planCampaign.withinBudget).toBe(false);
    const { id } = (await gql(CREATE, { m: campaignManifest({ benchmark: 'study', fraction: 0.2, budgetUsd: 100 }) })).data.createCampaign;
    const launch = await gql('mutation($id: ID!) { launchCampaign(id: $id) { status } }', { id });
    expect(codeOf(launch)).toBe('BUDGET_EXCEEDED');
    expect(launch.errors![0]!.message).toContain('$230.00');
  });

  describe('bad input: a clear error naming the field, and no partial campaign', () => {
    const cases: [string, Record<string, unknown>, string, RegExp][] = [
      ['fraction above 1', campaignManifest({ fraction: 1.5 }), 'benchmarks[0].fraction', /expected a number in \(0, 1\], got 1.5/],
      ['fraction 0', campaignManifest({ fraction: 0 }), 'benchmarks[0].fraction', /got 0/],
      ['negative budget', campaignManifest({ budgetUsd: -5 }), 'budgetUsd', /greater than 0, got -5/],
      ['unknown key', { ...campaignManifest(), budget: 5 }, 'budget', /unknown key "budget"/],
      ['wrong type', { ...campaignManifest(), repetitions: 'two' }, 'repetitions', /got "two"/],
      ['a mode the agent config lacks', campaignManifest({ modes: ['concurrent', 'turbo'] }), 'modes[1]', /a mode of agent config agent v1 \(concurrent, sequential\), got "turbo"/],
      ['a benchmark version that does not exist', campaignManifest({ version: '9.9.9' }), 'benchmarks[0].version', /one of 1\.1\.0, 1\.0\.0, got "9\.9\.9"/],
      ['an unknown task', campaignManifest({ tasks: ['task-0000', 'nope'] }), 'benchmarks[0].tasks[1]', /got "nope"/],
      ['an unknown agent config', { ...campaignManifest(), agents: [{ config: 'ghost' }] }, 'agents[0].config', /no agent config "ghost"/],
    ];
    for (const [name, manifest, field, message] of cases) {
      it(name, async () => {
        const before = await rowCounts();
        for (const query of [PLAN, CREATE]) {
          const res = await gql(query, { m: manifest });
          expect(['BAD_USER_INPUT', 'NOT_FOUND']).toContain(codeOf(res));
          expect(res.errors![0]!.extensions!.field).toBe(field);
          expect(res.errors![0]!.message).toMatch(message);
        }
        expect(await rowCounts()).toEqual(before);
      });
    }

    it('YAML errors carry the path and the line', async () => {
      const yaml = ['id: bad', 'name: Bad', 'version: "1"', 'suites:', '  - id: s', '    name: S', '    tasks:', '      - id: t', '        difficulty: HARD', '        instruction: x', '        workspace: w', '        grader: { command: x, format: junit }', '        timeBudgetMinutes: 5'].join('\n');
      const res = await gql('mutation($y: String!) { registerBenchmark(input: {yaml: $y}) { created } }', { y: yaml });
      expect(codeOf(res)).toBe('BAD_USER_INPUT');
      expect(res.errors![0]!.message).toContain('9: suites[0].tasks[0].difficulty: expected easy|medium|hard, got "HARD"');
      expect(res.errors![0]!.extensions!.field).toBe('suites[0].tasks[0].difficulty');
    });

    it('yaml and manifest together, or neither, is refused', async () => {
      const both = await gql('mutation($m: JSONObject!) { registerBenchmark(input: {yaml: "x: 1", manifest: $m}) { created } }', { m: benchmarkManifest() });
      expect(codeOf(both)).toBe('BAD_USER_INPUT');
      const neither = await gql('mutation { registerBenchmark(input: {}) { created } }');
      expect(codeOf(neither)).toBe('BAD_USER_INPUT');
    });
  });

  it('secrets are stored encrypted and never returned', async () => {
    const set = await gql('mutation { setSecret(name: "PROVIDER_KEY", value: "sk-very-secret-value") { name updatedAt } }');
    expect(set.data.setSecret.name).toBe('PROVIDER_KEY');
    const rows = await api.db.dataSource.query('SELECT sealed FROM org_secrets');
    for (const row of rows) expect(Buffer.from(row.sealed).toString('latin1')).not.toContain('sk-very-secret-value');
    expect((await gql('{ secrets { name } }')).data.secrets).toEqual([{ name: 'PROVIDER_KEY' }]);
    const bad = await gql('mutation { setSecret(name: "lower-case", value: "x") { name } }');
    expect(bad.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'name' });
    expect(api.logs.join('\n')).not.toContain('sk-very-secret-value');
  });
});
