import { Executor, SchedulerService, type StartRequest } from '#libs/engine';
import { pino } from 'pino';
import type { DataSource } from 'typeorm';
import type { TestApi } from './api.js';
import { CREATE, REGISTER_AGENT, REGISTER_BENCHMARK, agentManifest, benchmarkManifest, campaignManifest } from './manifests.js';

/**
 * An executor that starts nothing and records what it was asked: for the
 * scheduler's own rules (caps, fairness, recovery). The full path with real
 * runner processes is in the end-to-end tests.
 */
export class RecordingExecutor extends Executor {
  readonly started: StartRequest[] = [];
  readonly alive = new Set<string>();
  readonly stopped: string[] = [];
  failNextStart = false;

  constructor(readonly capacity = 1000) {
    super();
  }

  async start(request: StartRequest): Promise<void> {
    if (this.failNextStart) {
      this.failNextStart = false;
      throw new Error('simulated executor failure');
    }
    this.started.push(request);
    this.alive.add(`${request.executionId}/${request.attempt}`);
  }

  async isRunning(executionId: string, attempt: number): Promise<boolean> {
    return this.alive.has(`${executionId}/${attempt}`);
  }

  async stop(executionId: string, attempt: number): Promise<void> {
    this.alive.delete(`${executionId}/${attempt}`);
    this.stopped.push(executionId);
  }
}

export function scheduler(dataSource: DataSource, executor: Executor, maxAttempts = 3): SchedulerService {
  return new SchedulerService(dataSource, executor, { enabled: false, maxAttempts, tickMs: 50, backoffSeconds: 0, logger: pino({ level: 'silent' }) });
}

let seq = 0;

/** Registers a benchmark and the demo agent config and creates (and launches) a campaign; returns its id. */
export async function launchedCampaign(
  api: TestApi,
  token: string,
  options: { tasks?: number; maxConcurrency?: number; launch?: boolean; modes?: string[] } = {},
): Promise<string> {
  const n = ++seq;
  const tasks = options.tasks ?? 6;
  const bench = `engine-bench-${n}`;
  const run = async (query: string, m: unknown) => {
    const res = await api.gql<any>(query, { m }, token);
    if (res.errors) throw new Error(JSON.stringify(res.errors));
    return res.data;
  };
  await run(REGISTER_BENCHMARK, benchmarkManifest({ id: bench, groups: [tasks, 0, 0] }));
  await run(REGISTER_AGENT, agentManifest({ name: `engine-agent-${n}` }));
  const manifest = { ...campaignManifest({ benchmark: bench, agent: `engine-agent-${n}`, modes: options.modes ?? ['sequential'] }), maxConcurrency: options.maxConcurrency ?? 100 };
  const id = (await run(CREATE, manifest)).createCampaign.id as string;
  if (options.launch !== false) {
    const res = await api.gql('mutation($id: ID!) { launchCampaign(id: $id) { status } }', { id }, token);
    if (res.errors) throw new Error(JSON.stringify(res.errors));
  }
  return id;
}
