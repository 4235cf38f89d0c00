import { CampaignService } from '#libs/campaigns';
import { AgentConfigService, BenchmarkService } from '#libs/catalog';
import { APP_CONFIG, type AppConfig } from '#libs/config';
import { parseAgentConfigManifest, parseBenchmarkManifest, type CampaignManifest } from '#libs/contracts';
import { OrganizationEntity, Role, type Principal } from '#libs/identity';
import { LOGGER } from '#libs/observability';
import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import { packageRoot } from '../engine-setup.js';

export const DEMO_ORG_SLUG = 'fanout-demo';

/**
 * First start: on a database with no campaigns, registers the fanout-mini
 * benchmark and the demo agent under a "Fanout demo" organization, and
 * creates and launches a public campaign of both modes on every task, so a
 * new installation shows real runs within minutes. FANOUT_DEMO=off skips it.
 */
@Injectable()
export class DemoSeeder implements OnApplicationBootstrap {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly benchmarks: BenchmarkService,
    private readonly agents: AgentConfigService,
    private readonly campaigns: CampaignService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.demo) return;
    try {
      const id = await this.seed();
      if (id) this.logger.info({ campaignId: id }, `demo campaign launched: npx fanout campaign watch ${id}`);
    } catch (err) {
      this.logger.error({ err }, 'could not set up the demo campaign; the platform runs without it');
    }
  }

  /** Returns the launched campaign's id, or null when the database already had campaigns. */
  async seed(): Promise<string | null> {
    const [{ n }] = await this.dataSource.query('SELECT count(*)::int AS n FROM campaigns');
    if (n > 0) return null;
    const root = packageRoot();
    const benchmarkFile = join(root, 'benchmarks/fanout-mini/benchmark.yaml');
    const benchmark = parseBenchmarkManifest(await readFile(benchmarkFile, 'utf8'));
    const agent = parseAgentConfigManifest(await readFile(join(root, 'examples/demo-agent.yaml'), 'utf8'));
    if (!benchmark.ok || !agent.ok) throw new Error('the shipped demo manifests do not validate');
    const principal = await this.demoPrincipal();
    const { version } = await this.benchmarks.register(principal, benchmark.value, dirname(benchmarkFile));
    await this.agents.register(principal, agent.value);
    const manifest: CampaignManifest = {
      name: 'Demo: dynamic concurrency on fanout-mini',
      description: 'The scripted demo agent on every fanout-mini task, with sub-agents (concurrent) and without (sequential).',
      agents: [{ config: agent.value.name }],
      modes: ['concurrent', 'sequential'],
      benchmarks: [{ id: version.key, version: version.version, fraction: 1 }],
      repetitions: 1,
      seed: 1,
      budgetUsd: 10,
      maxConcurrency: Math.max(2, availableParallelism()),
      visibility: 'public',
    } as CampaignManifest;
    const campaign = await this.campaigns.create(principal, manifest);
    await this.campaigns.launch(principal, campaign.id);
    return campaign.id;
  }

  /** The demo org (no members; it exists to own the public demo). */
  private async demoPrincipal(): Promise<Principal> {
    const orgs = this.dataSource.getRepository(OrganizationEntity);
    let org = await orgs.findOneBy({ slug: DEMO_ORG_SLUG });
    if (!org) {
      org = await orgs.save(orgs.create({ id: randomUUID(), slug: DEMO_ORG_SLUG, name: 'Fanout demo', personal: false }));
    }
    return { kind: 'api_key', orgId: org.id, role: Role.OWNER, userId: null, apiKeyId: null, sessionId: null, platformAdmin: false };
  }
}
