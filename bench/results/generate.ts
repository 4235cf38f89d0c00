// Fills a fresh Fanout with the generated world through the public API, as
// users would: sign-ups, a member key per organization, the public
// benchmark, agent configs, campaigns (`createCampaign`, the real planner),
// then each campaign's results with the JSONL import (`POST
// /v1/campaigns/:id/import`, the pipeline `fanout import` streams to).
import cliProgress from 'cli-progress';
import type { BenchServer } from './bench-server.js';
import {
  BENCHMARK_KEY,
  ORGS,
  agentManifest,
  benchmarkManifest,
  campaignRecords,
  planCampaigns,
  studyTasks,
  type CampaignSpec,
  type ExecutionRecord,
  type StudyTask,
} from './dataset.js';
import { ExpectedBoard } from './expected.js';

export interface GeneratedOrg {
  name: string;
  token: string;
  key: string;
  /** agent name -> agent config version id */
  agentVersions: Map<string, string>;
}

export interface Generated {
  tasks: StudyTask[];
  orgs: GeneratedOrg[];
  campaigns: (CampaignSpec & { id: string })[];
  study: { id: string; records: ExecutionRecord[] };
  board: ExpectedBoard;
  executions: number;
  seconds: number;
}

/** Two campaigns in flight: one being planned or imported by the API while the next one's JSONL is built here. */
const PARALLEL = 2;

export async function generate(server: BenchServer, seed: number, total: number): Promise<Generated> {
  const started = performance.now();
  const tasks = studyTasks(seed);
  const orgs: GeneratedOrg[] = [];
  for (const [i, org] of ORGS.entries()) {
    const { signUp } = await server.must<{ signUp: { accessToken: string } }>(
      'mutation($input: SignUpInput!) { signUp(input: $input) { accessToken } }',
      { input: { email: `bench-${i}@example.test`, password: 'a long bench password', name: org.name } },
    );
    const { createApiKey } = await server.must<{ createApiKey: { key: string } }>(
      'mutation($input: CreateApiKeyInput!) { createApiKey(input: $input) { key } }',
      { input: { name: 'bench', role: 'MEMBER' } },
      signUp.accessToken,
    );
    if (i === 0) {
      await server.must('mutation($m: JSONObject!) { registerBenchmark(input: {manifest: $m}) { created } }', { m: benchmarkManifest(tasks) }, signUp.accessToken);
    }
    const agentVersions = new Map<string, string>();
    for (const agent of org.agents) {
      const { createAgentConfig } = await server.must<{ createAgentConfig: { agentConfig: { id: string } } }>(
        'mutation($m: JSONObject!) { createAgentConfig(input: {manifest: $m}) { agentConfig { id } } }',
        { m: agentManifest(agent) },
        signUp.accessToken,
      );
      agentVersions.set(agent.name, createAgentConfig.agentConfig.id);
    }
    orgs.push({ name: org.name, token: signUp.accessToken, key: createApiKey.key, agentVersions });
  }

  const specs = planCampaigns(seed, total, tasks);
  const board = new ExpectedBoard();
  const campaigns: Generated['campaigns'] = [];
  let studyRecords: ExecutionRecord[] = [];
  const bar = new cliProgress.SingleBar(
    { format: 'generating |{bar}| {value}/{total} executions, {campaigns} campaigns, {duration}s', noTTYOutput: true, notTTYSchedule: 10_000, hideCursor: true },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0, { campaigns: `0/${specs.length}` });
  let done = 0;
  let next = 0;
  const worker = async () => {
    while (next < specs.length) {
      const index = next++;
      const spec = specs[index]!;
      const org = orgs[spec.org]!;
      const manifest = {
        name: spec.name,
        agents: spec.agents.map((config) => ({ config })),
        modes: spec.modes,
        benchmarks: [spec.tasks === 'all' ? { id: BENCHMARK_KEY, fraction: 1 } : { id: BENCHMARK_KEY, tasks: spec.tasks }],
        repetitions: spec.repetitions,
        seed: index,
        budgetUsd: 1_000_000,
        visibility: spec.visibility,
      };
      const { createCampaign } = await server.must<{ createCampaign: { id: string; executionCount: number } }>(
        'mutation($m: JSONObject!) { createCampaign(input: {manifest: $m}) { id executionCount } }',
        { m: manifest },
        org.token,
      );
      if (createCampaign.executionCount !== spec.size) throw new Error(`${spec.name}: ${createCampaign.executionCount} executions planned, expected ${spec.size}`);
      const records = [...campaignRecords(seed, spec, tasks)];
      const summary = await server.importJsonl(createCampaign.id, org.key, `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
      if (summary.updated !== spec.size || summary.rejected !== 0) {
        throw new Error(`${spec.name}: import updated ${summary.updated} of ${spec.size}, rejected ${summary.rejected}: ${JSON.stringify(summary.errors.slice(0, 3))}`);
      }
      if (spec.visibility === 'public') {
        for (const r of records) board.add(createCampaign.id, org.agentVersions.get(r.agent)!, r);
      } else {
        board.privateCampaigns.add(createCampaign.id);
      }
      if (index === 0) studyRecords = records;
      campaigns[index] = { ...spec, id: createCampaign.id };
      done++;
      bar.increment(spec.size, { campaigns: `${done}/${specs.length}` });
    }
  };
  try {
    await Promise.all(Array.from({ length: PARALLEL }, worker));
  } finally {
    bar.stop();
  }
  return {
    tasks,
    orgs,
    campaigns,
    study: { id: campaigns[0]!.id, records: studyRecords },
    board,
    executions: campaigns.reduce((n, c) => n + c.size, 0),
    seconds: (performance.now() - started) / 1000,
  };
}
