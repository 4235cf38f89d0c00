import { DomainException } from '#libs/common';
import { toMetricsExecution } from '#libs/contracts';
import { isUuid } from '#libs/database';
import type { Principal } from '#libs/identity';
import {
  buildComparison,
  buildDelegationView,
  type ComparedExecution,
  type Comparison,
  type ComparisonFamily,
  type ComparisonSpec,
  type DelegationView,
  type Report,
  type SuccessRule,
} from '#libs/metrics';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { ExecutionEntity, type CampaignEntity } from '../entities/index.js';
import { buildCampaignReport, resultRecord, type CampaignReportOptions } from './campaign-export.js';
import { CampaignService } from './campaign.service.js';
import { publicLeaderboard, resolvePublicVersion, type Leaderboard, type LeaderboardQuery } from './leaderboard.js';
import { ResultDependencies, ResultsCache, benchmarkVersionScope, campaignScope } from './results-cache.js';

const PAGE = 2_000;

export interface ComparisonScope {
  campaignId?: string | null;
  agentConfigId?: string | null;
}

export interface ComparisonViewOptions {
  family: ComparisonFamily;
  resamples: number;
  seed: number;
}

export interface DelegationViewOptions {
  mode: string;
  permutations: number;
  seed: number;
}

/**
 * The results views of campaigns (report, comparison, delegation)
 * and public leaderboards: visibility first (own org or public, anything else
 * NOT_FOUND), then libs/metrics on the stored per-execution results, cached
 * per campaign until one of its executions' results changes. What a view
 * decides before its cache (who may see it, which board version) is recorded
 * as a check for the GraphQL response cache (ResultDependencies).
 */
@Injectable()
export class ResultsViewService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly campaigns: CampaignService,
    private readonly cache: ResultsCache,
  ) {}

  async report(principal: Principal | null, campaignId: string, options: CampaignReportOptions): Promise<Report> {
    const campaign = await this.visible(principal, campaignId);
    return this.cache.get([campaignScope(campaign.id)], `report:${JSON.stringify(options)}`, () => buildCampaignReport(this.dataSource, campaign, options));
  }

  async comparison(principal: Principal | null, scope: ComparisonScope, spec: ComparisonSpec, options: ComparisonViewOptions): Promise<Comparison> {
    if (Boolean(scope.campaignId) === Boolean(scope.agentConfigId)) throw DomainException.badInput('campaign', 'exactly one of campaign and agentConfig', scope);
    if (scope.campaignId) {
      const campaign = await this.visible(principal, scope.campaignId);
      return this.cache.get([campaignScope(campaign.id)], `comparison:${JSON.stringify([spec, options])}`, async () => {
        const executions = await this.loadExecutions([campaign.id]);
        return buildComparison(executions, spec, { ...options, successRules: await this.successRules([campaign]) });
      });
    }
    if (spec.by !== 'mode') throw DomainException.badInput('agentConfig', 'a campaign for a comparison of two agents', scope.agentConfigId);
    const { campaigns, versionIds } = await this.campaignsOfAgentConfig(principal, scope.agentConfigId!);
    return this.cache.get(
      campaigns.map((c) => campaignScope(c.id)),
      `comparison:${scope.agentConfigId}:${JSON.stringify([spec, options])}`,
      async () => {
        const versions = new Map<string, number>(
          (await this.dataSource.query('SELECT id, version FROM agent_config_versions WHERE id = ANY($1::uuid[])', [versionIds])).map((v: { id: string; version: number }) => [v.id, v.version]),
        );
        // Pairs stay inside a campaign; each config version is its own subject (versions are never pooled).
        const executions = await this.loadExecutions(
          campaigns.map((c) => c.id),
          versionIds,
          (row, execution) => ({ ...execution, agent: `${execution.agent} v${versions.get(row.agentConfigVersionId) ?? '?'}` }),
        );
        return buildComparison(executions, spec, { ...options, successRules: await this.successRules(campaigns) });
      },
    );
  }

  async delegation(principal: Principal | null, campaignId: string, options: DelegationViewOptions): Promise<DelegationView> {
    const campaign = await this.visible(principal, campaignId);
    return this.cache.get([campaignScope(campaign.id)], `delegation:${JSON.stringify(options)}`, async () =>
      buildDelegationView(await this.loadExecutions([campaign.id]), options.mode, options.permutations, options.seed),
    );
  }

  async leaderboard(query: LeaderboardQuery): Promise<Leaderboard> {
    const pinned = await resolvePublicVersion(this.dataSource, query.benchmark, query.version);
    // A newly registered public version changes which board "the latest" is.
    ResultDependencies.current()?.addCheck(() =>
      resolvePublicVersion(this.dataSource, query.benchmark, query.version).then(
        (now) => now.id === pinned.id && now.version === pinned.version,
        () => false,
      ),
    );
    const key = `leaderboard:${JSON.stringify([query.suite ?? null, query.mode ?? null, query.difficulty ?? null])}`;
    return this.cache.get([benchmarkVersionScope(pinned.id)], key, () => publicLeaderboard(this.dataSource, query, pinned));
  }

  /** getVisible, recording that the answer holds while the campaign's visibility and owner are unchanged. */
  private async visible(principal: Principal | null, campaignId: string): Promise<CampaignEntity> {
    const campaign = await this.campaigns.getVisible(principal, campaignId);
    ResultDependencies.current()?.addCheck(async () => {
      const rows: { visibility: string; org_id: string }[] = await this.dataSource.query('SELECT visibility, org_id FROM campaigns WHERE id = $1', [campaign.id]);
      return rows[0]?.visibility === campaign.visibility && rows[0]?.org_id === campaign.orgId;
    });
    return campaign;
  }

  /** Executions with a result of the campaigns, as the comparison takes them: linked by id, paired within their campaign. */
  private async loadExecutions(
    campaignIds: string[],
    agentConfigVersionIds: string[] | null = null,
    relabel: (row: ExecutionEntity, execution: ComparedExecution) => ComparedExecution = (_, e) => e,
  ): Promise<ComparedExecution[]> {
    const out: ComparedExecution[] = [];
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      const qb = this.dataSource
        .getRepository(ExecutionEntity)
        .createQueryBuilder('e')
        .where('e.campaignId IN (:...campaignIds) AND e.id > :after AND e.outcome IS NOT NULL', { campaignIds, after });
      if (agentConfigVersionIds) qb.andWhere('e.agentConfigVersionId IN (:...agentConfigVersionIds)', { agentConfigVersionIds });
      const rows = await qb.orderBy('e.id').limit(PAGE).getMany();
      for (const row of rows) {
        const record = resultRecord(row);
        if (record) out.push(relabel(row, { ...toMetricsExecution(record), id: row.id, group: row.campaignId }));
      }
      if (rows.length < PAGE) return out;
      after = rows.at(-1)!.id;
    }
  }

  private async successRules(campaigns: CampaignEntity[]): Promise<Record<string, SuccessRule>> {
    const rules: { key: string }[] = await this.dataSource.query(
      `SELECT DISTINCT key FROM benchmark_versions WHERE id = ANY($1::uuid[]) AND success_rule = 'testPassAboveZero'`,
      [campaigns.flatMap((c) => c.plan.benchmarks.map((b) => b.benchmarkVersionId))],
    );
    return Object.fromEntries(rules.map((r) => [r.key, 'testPassAboveZero' as const]));
  }

  /**
   * The campaigns an agent config ran in that the caller may see: all of
   * them for its own org, public ones for anyone else. None visible is
   * NOT_FOUND, like a missing id.
   */
  private async campaignsOfAgentConfig(principal: Principal | null, agentConfigId: string): Promise<{ campaigns: CampaignEntity[]; versionIds: string[] }> {
    if (!isUuid(agentConfigId)) throw DomainException.notFound('agent config', agentConfigId);
    const { ids, versionIds } = await this.visibleCampaignIdsOfAgentConfig(principal, agentConfigId);
    if (ids.length === 0) throw DomainException.notFound('agent config', agentConfigId);
    // A new version of the config, or a campaign of it created or hidden, changes the set compared.
    const fingerprint = (found: { ids: string[]; versionIds: string[] }) => JSON.stringify([found.ids, [...found.versionIds].sort()]);
    const seen = fingerprint({ ids, versionIds });
    ResultDependencies.current()?.addCheck(async () => fingerprint(await this.visibleCampaignIdsOfAgentConfig(principal, agentConfigId)) === seen);
    const campaigns = await Promise.all(ids.map((id) => this.campaigns.getVisible(principal, id)));
    return { campaigns, versionIds };
  }

  private async visibleCampaignIdsOfAgentConfig(principal: Principal | null, agentConfigId: string): Promise<{ ids: string[]; versionIds: string[] }> {
    const versionIds: string[] = (await this.dataSource.query('SELECT id FROM agent_config_versions WHERE agent_config_id = $1', [agentConfigId])).map((r: { id: string }) => r.id);
    const ids: string[] = versionIds.length === 0
      ? []
      : (
          await this.dataSource.query(
            `SELECT c.id FROM campaigns c
              WHERE (c.visibility = 'public' OR c.org_id = $2)
                AND EXISTS (SELECT 1 FROM jsonb_array_elements(c.plan->'agents') a WHERE a->>'agentConfigVersionId' = ANY($1::text[]))
              ORDER BY c.id`,
            [versionIds, principal?.orgId ?? null],
          )
        ).map((r: { id: string }) => r.id);
    return { ids, versionIds };
  }
}
