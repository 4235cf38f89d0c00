import { CampaignEntity, ExecutionEntity, type CampaignPlan, type ExecutionStatus } from '#libs/campaigns';
import { AgentConfigEntity, AgentConfigVersionEntity, BenchmarkEntity, BenchmarkVersionEntity, TaskEntity, type Difficulty } from '#libs/catalog';
import type { AgentConfigManifest, BenchmarkManifest, ExecutionRecord } from '#libs/contracts';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';

/**
 * A campaign with its planned executions, written straight into the tables
 * (no CampaignService): catalog rows (benchmark, version, tasks, agent
 * configs and versions), the campaign, and one queued execution per
 * agent x mode x task x repetition, all owned by `orgId`.
 */
export interface FixtureTask {
  key: string;
  suite?: string;
  difficulty: Difficulty;
  referenceKloc?: number | null;
}

export interface CampaignFixtureOptions {
  orgId: string;
  name?: string;
  agents?: { name: string; model: string }[];
  modes?: string[];
  benchmarks?: { key: string; tasks: FixtureTask[] }[];
  repetitions?: number;
  status?: ExecutionStatus;
  /** Agent config versions to reuse by agent name (e.g. the same config in a second campaign) instead of creating new ones. */
  reuseVersions?: Record<string, string>;
}

/** One planned execution and the identity an execution record gives it. */
export interface FixtureUnit {
  id: string;
  agent: string;
  model: string;
  mode: string;
  benchmark: string;
  suite: string;
  task: string;
  difficulty: Difficulty;
  referenceKloc: number | null;
  repetition: number;
}

export interface CampaignFixture {
  campaignId: string;
  units: FixtureUnit[];
}

export const DEFAULT_FIXTURE = {
  agents: [
    { name: 'codex', model: 'gpt-5-codex' },
    { name: 'claude', model: 'claude-sonnet-4-5' },
  ],
  modes: ['concurrent', 'sequential'],
  benchmarks: [
    {
      key: 'repo-rebuild',
      tasks: [
        { key: 'flask', suite: 'python', difficulty: 'hard' as Difficulty, referenceKloc: 31 },
        { key: 'click', suite: 'python', difficulty: 'easy' as Difficulty, referenceKloc: 12.5 },
        { key: 'express', suite: 'js', difficulty: 'medium' as Difficulty, referenceKloc: null },
      ],
    },
  ],
  repetitions: 2,
};

const CHUNK = 1000;

export async function createCampaignFixture(dataSource: DataSource, options: CampaignFixtureOptions): Promise<CampaignFixture> {
  const { orgId } = options;
  const agents = options.agents ?? DEFAULT_FIXTURE.agents;
  const modes = options.modes ?? DEFAULT_FIXTURE.modes;
  const benchmarks = options.benchmarks ?? DEFAULT_FIXTURE.benchmarks;
  const repetitions = options.repetitions ?? DEFAULT_FIXTURE.repetitions;
  const campaignId = randomUUID();
  const planned: (FixtureUnit & { versionId: string; benchmarkVersionId: string; taskId: string })[] = [];

  await dataSource.transaction(async (tx) => {
    const plan: CampaignPlan = {
      agents: [],
      modes,
      benchmarks: [],
      repetitions,
      seed: 1,
      timeBudgetMinutes: null,
      executionCount: 0,
      estimate: { lowUsd: null, expectedUsd: null, highUsd: null, basis: [] },
    };
    const versions: { agent: { name: string; model: string }; versionId: string }[] = [];
    for (const agent of agents) {
      const reused = options.reuseVersions?.[agent.name];
      if (reused) {
        versions.push({ agent, versionId: reused });
        plan.agents.push({ name: agent.name, agentConfigVersionId: reused, version: 1, model: agent.model });
        continue;
      }
      const configId = randomUUID();
      const versionId = randomUUID();
      await tx.getRepository(AgentConfigEntity).insert({ id: configId, orgId, name: `${agent.name}-${campaignId.slice(0, 8)}` });
      const manifest = {
        name: agent.name,
        scaffold: 'codex',
        model: agent.model,
        image: 'example/agent:1',
        command: ['agent'],
        modes: Object.fromEntries(modes.map((m) => [m, { env: { MODE: m } }])),
      } as unknown as AgentConfigManifest;
      await tx
        .getRepository(AgentConfigVersionEntity)
        .insert({ id: versionId, orgId, agentConfigId: configId, name: agent.name, version: 1, fingerprint: versionId, scaffold: 'codex', model: agent.model, manifest });
      versions.push({ agent, versionId });
      plan.agents.push({ name: agent.name, agentConfigVersionId: versionId, version: 1, model: agent.model });
    }

    const tasks: { benchmark: string; benchmarkVersionId: string; taskId: string; task: FixtureTask & { suite: string } }[] = [];
    for (const benchmark of benchmarks) {
      const benchmarkId = randomUUID();
      const benchmarkVersionId = randomUUID();
      await tx.getRepository(BenchmarkEntity).insert({ id: benchmarkId, orgId, key: `${benchmark.key}-${campaignId.slice(0, 8)}` });
      const suites = [...new Set(benchmark.tasks.map((t) => t.suite ?? 'main'))];
      const manifest = {
        id: benchmark.key,
        name: benchmark.key,
        version: '1.0.0',
        visibility: 'private',
        success: 'taskPass',
        suites: suites.map((suite) => ({ id: suite, name: suite, tasks: benchmark.tasks.filter((t) => (t.suite ?? 'main') === suite).map((t) => ({ id: t.key, difficulty: t.difficulty })) })),
      } as unknown as BenchmarkManifest;
      await tx.getRepository(BenchmarkVersionEntity).insert({
        id: benchmarkVersionId,
        orgId,
        benchmarkId,
        key: benchmark.key,
        version: '1.0.0',
        seq: 1,
        fingerprint: benchmarkVersionId,
        name: benchmark.key,
        description: null,
        visibility: 'private',
        successRule: 'taskPass',
        taskCount: benchmark.tasks.length,
        manifest,
      });
      const rows = benchmark.tasks.map((task, ordinal) => {
        const taskId = randomUUID();
        tasks.push({ benchmark: benchmark.key, benchmarkVersionId, taskId, task: { ...task, suite: task.suite ?? 'main' } });
        return {
          id: taskId,
          orgId,
          benchmarkVersionId,
          suiteKey: task.suite ?? 'main',
          taskKey: task.key,
          difficulty: task.difficulty,
          referenceKloc: task.referenceKloc ?? null,
          timeBudgetMinutes: 60,
          expectedTokens: null,
          ordinal,
        };
      });
      for (let i = 0; i < rows.length; i += CHUNK) await tx.getRepository(TaskEntity).insert(rows.slice(i, i + CHUNK));
      const count = (d: Difficulty) => benchmark.tasks.filter((t) => t.difficulty === d).length;
      plan.benchmarks.push({
        key: benchmark.key,
        benchmarkVersionId,
        version: '1.0.0',
        suite: null,
        selection: { tasks: benchmark.tasks.map((t) => t.key) },
        strata: (['easy', 'medium', 'hard'] as const).map((difficulty) => ({ difficulty, available: count(difficulty), sampled: count(difficulty) })),
        sampledTasks: benchmark.tasks.length,
      });
    }

    for (const { agent, versionId } of versions) {
      for (const mode of modes) {
        for (const { benchmark, benchmarkVersionId, taskId, task } of tasks) {
          for (let repetition = 0; repetition < repetitions; repetition++) {
            planned.push({
              id: randomUUID(),
              agent: agent.name,
              model: agent.model,
              mode,
              benchmark,
              suite: task.suite,
              task: task.key,
              difficulty: task.difficulty,
              referenceKloc: task.referenceKloc ?? null,
              repetition,
              versionId,
              benchmarkVersionId,
              taskId,
            });
          }
        }
      }
    }
    plan.executionCount = planned.length;
    await tx.getRepository(CampaignEntity).insert({
      id: campaignId,
      orgId,
      name: options.name ?? `fixture ${campaignId.slice(0, 8)}`,
      description: null,
      status: 'created',
      visibility: 'private',
      seed: 1,
      repetitions,
      maxConcurrency: 4,
      budgetMicros: 1_000_000_000,
      executionCount: planned.length,
      plan,
      createdByUserId: null,
    });
    const executions = planned.map((u) => {
      return {
        id: u.id,
        orgId,
        campaignId,
        agentConfigVersionId: u.versionId,
        agentName: u.agent,
        model: u.model,
        mode: u.mode,
        benchmarkVersionId: u.benchmarkVersionId,
        benchmarkKey: u.benchmark,
        taskId: u.taskId,
        suiteKey: u.suite,
        taskKey: u.task,
        difficulty: u.difficulty,
        repetition: u.repetition,
        status: options.status ?? ('queued' as ExecutionStatus),
      };
    });
    for (let i = 0; i < executions.length; i += CHUNK) await tx.getRepository(ExecutionEntity).insert(executions.slice(i, i + CHUNK));
  });
  const units = planned.map(({ id, agent, model, mode, benchmark, suite, task, difficulty, referenceKloc, repetition }) => ({ id, agent, model, mode, benchmark, suite, task, difficulty, referenceKloc, repetition }));
  return { campaignId, units };
}

/**
 * A valid execution record for a unit; `seed` varies the numbers so that two
 * calls with different seeds give different records.
 */
export function recordFor(unit: FixtureUnit, seed = 0, overrides: Partial<ExecutionRecord> = {}): ExecutionRecord {
  const n = (unit.repetition + 1) * 7 + unit.task.length + seed;
  const concurrent = unit.mode === 'concurrent';
  return {
    agent: unit.agent,
    model: unit.model,
    benchmark: unit.benchmark,
    suite: unit.suite,
    task: unit.task,
    difficulty: unit.difficulty,
    mode: unit.mode,
    repetition: unit.repetition,
    outcome: 'completed',
    testsPassed: n,
    testsTotal: n + 3,
    resolved: false,
    wallSeconds: 600.25 + n,
    shellCalls: 40 + n,
    usage: { inputTokens: 1_000_000 + n, cacheReadTokens: 800_000, cacheWriteTokens: 1000, outputTokens: 50_000 + n, reasoningTokens: 30_000 },
    costUsd: 1.234567 + n,
    referenceKloc: unit.referenceKloc,
    agents: concurrent
      ? [
          { id: 'main', parentId: null, start: '2025-06-01T10:00:00Z', end: '2025-06-01T10:40:00.125Z' },
          { id: 'a', parentId: 'main', start: '2025-06-01T10:04:00Z', end: '2025-06-01T10:20:00Z' },
          { id: 'a1', parentId: 'a', start: '2025-06-01T09:59:59.5+00:00', end: '2025-06-01T12:41:00.000250+02:00' },
        ]
      : [{ id: 'main', parentId: null, start: '2025-06-01T10:00:00Z', end: '2025-06-01T10:30:00Z' }],
    ...overrides,
  };
}

/** JSONL text of records (one per line, trailing newline). */
export function jsonl(records: unknown[]): string {
  return records.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n') + '\n';
}
