import { Clock, DomainException } from '#libs/common';
import type { CampaignManifest } from '#libs/contracts';
import { AgentConfigService, BenchmarkService, type AgentConfigVersionEntity, type TaskEntity } from '#libs/catalog';
import { stratifiedSample } from '#libs/metrics';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { CampaignPlan } from './campaign-plan.js';
import { estimateCost } from './cost-estimator.js';

export interface PlannedUnit {
  agent: AgentConfigVersionEntity;
  mode: string;
  task: TaskEntity;
  benchmarkKey: string;
  repetition: number;
}

export interface PlannedCampaign {
  plan: CampaignPlan;
  units: PlannedUnit[];
}

/** Hard ceiling per campaign: one transaction writes every execution. */
export const MAX_EXECUTIONS = 250_000;
const DIFFICULTIES = ['easy', 'medium', 'hard'] as const;

/**
 * Turns a campaign manifest into pinned versions, a stratified seeded sample
 * per benchmark (metrics.md "Sampling"), the execution units and a cost
 * estimate. Pure planning: nothing is written.
 */
@Injectable()
export class CampaignPlanner {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly agentConfigs: AgentConfigService,
    private readonly benchmarks: BenchmarkService,
    private readonly clock: Clock,
  ) {}

  async plan(orgId: string, manifest: CampaignManifest): Promise<PlannedCampaign> {
    const agents = await Promise.all(manifest.agents.map((a, i) => this.agentConfigs.resolve(orgId, a.config, a.version ?? null, `agents[${i}]`)));
    const seenAgents = new Set<string>();
    agents.forEach((agent, i) => {
      if (seenAgents.has(agent.id)) throw DomainException.badInput(`agents[${i}]`, 'each agent config version once', `${agent.name} v${agent.version} again`);
      seenAgents.add(agent.id);
      manifest.modes.forEach((mode, j) => {
        if (!(mode in agent.manifest.modes)) {
          throw DomainException.badInput(`modes[${j}]`, `a mode of agent config ${agent.name} v${agent.version} (${Object.keys(agent.manifest.modes).join(', ')})`, mode);
        }
      });
    });

    const benchmarks: CampaignPlan['benchmarks'] = [];
    const sampled: { task: TaskEntity; benchmarkKey: string }[] = [];
    const pinned = new Set<string>();
    for (const [i, entry] of manifest.benchmarks.entries()) {
      const at = `benchmarks[${i}]`;
      const version = await this.benchmarks.resolve(orgId, entry.id, entry.version ?? null, at);
      const suite = entry.suite ?? null;
      if (suite && !version.manifest.suites.some((s) => s.id === suite)) {
        throw DomainException.badInput(`${at}.suite`, `a suite of ${version.key} ${version.version} (${version.manifest.suites.map((s) => s.id).join(', ')})`, suite);
      }
      const pin = `${version.id}/${suite ?? '*'}`;
      if (pinned.has(pin)) throw DomainException.badInput(at, 'each benchmark (and suite) once', `${entry.id}${suite ? `/${suite}` : ''} again`);
      pinned.add(pin);
      const tasks = await this.benchmarks.tasks(version.id, { suite });
      let chosen: TaskEntity[];
      if ('fraction' in entry && entry.fraction != null) {
        const stratumSet = suite ? `${version.key}/${suite}` : version.key;
        const sample = stratifiedSample(
          tasks.map((task) => ({ id: task.taskKey, benchmark: stratumSet, group: task.difficulty, task })),
          { fraction: entry.fraction, seed: manifest.seed },
        );
        chosen = sample.tasks.map((t) => t.task);
      } else {
        const byKey = new Map(tasks.map((t) => [t.taskKey, t]));
        chosen = (entry.tasks ?? []).map((key, j) => {
          const task = byKey.get(key);
          if (!task) throw DomainException.badInput(`${at}.tasks[${j}]`, `a task of ${version.key} ${version.version}${suite ? ` suite ${suite}` : ''}`, key);
          return task;
        });
      }
      benchmarks.push({
        key: version.key,
        benchmarkVersionId: version.id,
        version: version.version,
        suite,
        selection: 'fraction' in entry && entry.fraction != null ? { fraction: entry.fraction } : { tasks: entry.tasks ?? [] },
        strata: DIFFICULTIES.map((difficulty) => ({
          difficulty,
          available: tasks.filter((t) => t.difficulty === difficulty).length,
          sampled: chosen.filter((t) => t.difficulty === difficulty).length,
        })),
        sampledTasks: chosen.length,
      });
      sampled.push(...chosen.map((task) => ({ task, benchmarkKey: version.key })));
    }

    const executionCount = agents.length * manifest.modes.length * sampled.length * manifest.repetitions;
    if (executionCount > MAX_EXECUTIONS) {
      throw DomainException.badInput('benchmarks', `at most ${MAX_EXECUTIONS} executions per campaign (agents x modes x tasks x repetitions)`, executionCount);
    }
    if (executionCount === 0) throw DomainException.badInput('benchmarks', 'a sample with at least one task (raise the fraction)', 0);
    const units: PlannedUnit[] = [];
    for (const agent of agents) {
      for (const mode of manifest.modes) {
        for (const { task, benchmarkKey } of sampled) {
          for (let repetition = 0; repetition < manifest.repetitions; repetition++) units.push({ agent, mode, task, benchmarkKey, repetition });
        }
      }
    }
    const estimate = await estimateCost(
      this.dataSource,
      orgId,
      units.map((u) => ({ model: u.agent.model, benchmark: u.benchmarkKey, expectedTokens: u.task.expectedTokens })),
      this.clock.now(),
    );
    return {
      units,
      plan: {
        agents: agents.map((a) => ({ name: a.name, agentConfigVersionId: a.id, version: a.version, model: a.model })),
        modes: manifest.modes,
        benchmarks,
        repetitions: manifest.repetitions,
        seed: manifest.seed,
        timeBudgetMinutes: manifest.timeBudgetMinutes ?? null,
        executionCount,
        estimate,
      },
    };
  }
}
