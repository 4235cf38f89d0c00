/** Manifest builders for tests (JSON form; the YAML form is covered by libs/contracts). */

export function benchmarkManifest(options: { id?: string; version?: string; visibility?: 'public' | 'private'; groups?: [number, number, number]; expectedTokens?: number } = {}) {
  const [easy, medium, hard] = options.groups ?? [4, 5, 3];
  const difficulties = [...Array(easy).fill('easy'), ...Array(medium).fill('medium'), ...Array(hard).fill('hard')] as string[];
  return {
    id: options.id ?? 'bench',
    name: 'Test benchmark',
    version: options.version ?? '1.0.0',
    visibility: options.visibility ?? 'private',
    suites: [
      {
        id: 'main',
        name: 'Main',
        tasks: difficulties.map((difficulty, i) => ({
          id: `task-${String(i).padStart(4, '0')}`,
          difficulty,
          referenceKloc: 1 + (i % 7),
          instruction: `Do task ${i}`,
          workspace: `tasks/${i}/workspace`,
          tests: `tasks/${i}/tests`,
          grader: { command: ['npm', 'test'], format: 'junit' },
          timeBudgetMinutes: 30,
          ...(options.expectedTokens ? { expectedTokens: options.expectedTokens } : {}),
        })),
      },
    ],
  };
}

export function agentManifest(options: { name?: string; model?: string; modes?: string[]; secrets?: string[] } = {}) {
  return {
    name: options.name ?? 'agent',
    scaffold: 'custom',
    model: options.model ?? 'fanout/demo-agent',
    command: ['node', 'agent.js'],
    modes: Object.fromEntries((options.modes ?? ['concurrent', 'sequential']).map((m) => [m, { env: { FANOUT_MODE: m } }])),
    ...(options.secrets ? { secrets: options.secrets } : {}),
  };
}

export function campaignManifest(options: { benchmark?: string; agent?: string; fraction?: number; tasks?: string[]; seed?: number; budgetUsd?: number; modes?: string[]; repetitions?: number; version?: string } = {}) {
  return {
    name: 'Test campaign',
    agents: [{ config: options.agent ?? 'agent' }],
    modes: options.modes ?? ['concurrent', 'sequential'],
    benchmarks: [
      {
        id: options.benchmark ?? 'bench',
        ...(options.version ? { version: options.version } : {}),
        ...(options.tasks ? { tasks: options.tasks } : { fraction: options.fraction ?? 1 }),
      },
    ],
    repetitions: options.repetitions ?? 1,
    seed: options.seed ?? 7,
    budgetUsd: options.budgetUsd ?? 100,
  };
}

export const REGISTER_BENCHMARK = 'mutation($m: JSONObject!) { registerBenchmark(input: {manifest: $m}) { created benchmark { id key version seq taskCount groupSizes { difficulty count } } } }';
export const REGISTER_AGENT = 'mutation($m: JSONObject!) { createAgentConfig(input: {manifest: $m}) { created missingSecrets agentConfig { id name version } } }';
export const PLAN = 'mutation($m: JSONObject!) { planCampaign(input: {manifest: $m}) { executionCount withinBudget benchmarks { key strata { difficulty available sampled } sampledTasks } estimate { lowUsd expectedUsd highUsd basis { source executions } } } }';
export const CREATE = 'mutation($m: JSONObject!) { createCampaign(input: {manifest: $m}) { id status executionCount progress { queued total } } }';
