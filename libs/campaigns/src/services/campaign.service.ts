import { Clock, DomainException, ErrorCode, type Page, type PageArgs } from '#libs/common';
import type { CampaignManifest } from '#libs/contracts';
import { isUuid, paginate, requireOrgId } from '#libs/database';
import { Role, requireRole, type Principal } from '#libs/identity';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { In, type DataSource } from 'typeorm';
import { CampaignEntity, ExecutionEntity, type CampaignStatus, type ExecutionStatus } from '../entities/index.js';
import type { CampaignPlan } from '../planning/campaign-plan.js';
import { CampaignPlanner } from '../planning/campaign-planner.js';

export interface ExecutionFilter {
  campaignId?: string | null;
  status?: ExecutionStatus[] | null;
  agent?: string | null;
  mode?: string | null;
  benchmark?: string | null;
  difficulty?: 'easy' | 'medium' | 'hard' | null;
}

const TRANSITIONS: Record<'launch' | 'pause' | 'resume' | 'cancel', { from: CampaignStatus[]; to: CampaignStatus }> = {
  launch: { from: ['created'], to: 'running' },
  pause: { from: ['running'], to: 'paused' },
  resume: { from: ['paused'], to: 'running' },
  cancel: { from: ['created', 'running', 'paused'], to: 'cancelled' },
};

/** Campaigns: planned from a manifest, written with every execution in one transaction, then driven through their states. */
@Injectable()
export class CampaignService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly planner: CampaignPlanner,
    private readonly clock: Clock,
  ) {}

  /** The dry run: sample table, execution count and estimate; writes nothing. */
  async plan(principal: Principal, manifest: CampaignManifest): Promise<CampaignPlan & { budgetUsd: number; withinBudget: boolean | null }> {
    requireRole(principal, Role.MEMBER, 'planCampaign');
    const { plan } = await this.planner.plan(principal.orgId, manifest);
    return { ...plan, budgetUsd: manifest.budgetUsd, withinBudget: plan.estimate.lowUsd == null ? null : plan.estimate.lowUsd <= manifest.budgetUsd };
  }

  /** Writes the campaign and all its executions (status queued) atomically: a failure leaves nothing behind. */
  async create(principal: Principal, manifest: CampaignManifest): Promise<CampaignEntity> {
    requireRole(principal, Role.MEMBER, 'createCampaign');
    const orgId = requireOrgId(principal.orgId);
    const { plan, units } = await this.planner.plan(orgId, manifest);
    return this.dataSource.transaction(async (tx) => {
      const campaign = await tx.getRepository(CampaignEntity).save(
        tx.getRepository(CampaignEntity).create({
          id: randomUUID(),
          orgId,
          name: manifest.name,
          description: manifest.description ?? null,
          status: 'created',
          visibility: manifest.visibility,
          seed: manifest.seed,
          repetitions: manifest.repetitions,
          maxConcurrency: manifest.maxConcurrency,
          budgetMicros: Math.round(manifest.budgetUsd * 1e6),
          executionCount: plan.executionCount,
          plan,
          createdByUserId: principal.userId,
          launchedAt: null,
        }),
      );
      const rows = units.map((u) => ({
        id: randomUUID(),
        orgId,
        campaignId: campaign.id,
        agentConfigVersionId: u.agent.id,
        agentName: u.agent.name,
        model: u.agent.model,
        mode: u.mode,
        benchmarkVersionId: u.task.benchmarkVersionId,
        benchmarkKey: u.benchmarkKey,
        taskId: u.task.id,
        suiteKey: u.task.suiteKey,
        taskKey: u.task.taskKey,
        difficulty: u.task.difficulty,
        repetition: u.repetition,
        status: 'queued' as const,
        source: 'run' as const,
        referenceKloc: u.task.referenceKloc,
      }));
      for (let i = 0; i < rows.length; i += 2000) await tx.getRepository(ExecutionEntity).insert(rows.slice(i, i + 2000));
      return campaign;
    });
  }

  async launch(principal: Principal, id: string): Promise<CampaignEntity> {
    requireRole(principal, Role.MEMBER, 'launchCampaign');
    const campaign = await this.get(principal, id);
    const low = campaign.plan.estimate.lowUsd;
    const cap = campaign.budgetMicros / 1e6;
    if (low != null && low > cap) {
      throw new DomainException(
        ErrorCode.BUDGET_EXCEEDED,
        `the cost estimate's low end ($${low.toFixed(2)}) is already above the budget cap ($${cap.toFixed(2)}); raise budgetUsd or sample fewer tasks`,
      );
    }
    return this.transition(principal, id, 'launch');
  }

  pause(principal: Principal, id: string): Promise<CampaignEntity> {
    requireRole(principal, Role.MEMBER, 'pauseCampaign');
    return this.transition(principal, id, 'pause');
  }

  resume(principal: Principal, id: string): Promise<CampaignEntity> {
    requireRole(principal, Role.MEMBER, 'resumeCampaign');
    return this.transition(principal, id, 'resume');
  }

  /** Cancels the campaign and its queued executions; running ones are stopped by the engine. */
  cancel(principal: Principal, id: string): Promise<CampaignEntity> {
    requireRole(principal, Role.MEMBER, 'cancelCampaign');
    return this.transition(principal, id, 'cancel');
  }

  async get(principal: Principal, id: string): Promise<CampaignEntity> {
    const campaign = isUuid(id) ? await this.dataSource.getRepository(CampaignEntity).findOneBy({ id, orgId: requireOrgId(principal.orgId) }) : null;
    if (!campaign) throw DomainException.notFound('campaign', id);
    return campaign;
  }

  /** Read access: the caller's own campaigns, and public campaigns of any org (anonymous callers: public only). */
  async getVisible(principal: Principal | null, id: string): Promise<CampaignEntity> {
    const campaign = isUuid(id) ? await this.dataSource.getRepository(CampaignEntity).findOneBy({ id }) : null;
    if (!campaign || (campaign.visibility !== 'public' && campaign.orgId !== principal?.orgId)) throw DomainException.notFound('campaign', id);
    return campaign;
  }

  list(principal: Principal, page: PageArgs, filter: { status?: CampaignStatus[] | null } = {}): Promise<Page<CampaignEntity>> {
    const qb = this.dataSource.getRepository(CampaignEntity).createQueryBuilder('c').where('c.orgId = :orgId', { orgId: requireOrgId(principal.orgId) });
    if (filter.status?.length) qb.andWhere('c.status IN (:...status)', { status: filter.status });
    return paginate(qb, page);
  }

  /** Executions of the caller's org; with a campaign filter, of that campaign when the caller may read it (public ones too). */
  async executions(principal: Principal | null, filter: ExecutionFilter, page: PageArgs): Promise<Page<ExecutionEntity>> {
    const qb = this.dataSource.getRepository(ExecutionEntity).createQueryBuilder('e');
    if (filter.campaignId) {
      const campaign = await this.getVisible(principal, filter.campaignId);
      qb.where('e.campaignId = :campaignId AND e.orgId = :orgId', { campaignId: campaign.id, orgId: campaign.orgId });
    } else {
      if (!principal) throw DomainException.badInput('filter.campaignId', 'a public campaign id when not signed in');
      qb.where('e.orgId = :orgId', { orgId: requireOrgId(principal.orgId) });
    }
    if (filter.status?.length) qb.andWhere('e.status IN (:...status)', { status: filter.status });
    if (filter.agent) qb.andWhere('e.agentName = :agent', { agent: filter.agent });
    if (filter.mode) qb.andWhere('e.mode = :mode', { mode: filter.mode });
    if (filter.benchmark) qb.andWhere('e.benchmarkKey = :benchmark', { benchmark: filter.benchmark });
    if (filter.difficulty) qb.andWhere('e.difficulty = :difficulty', { difficulty: filter.difficulty });
    return paginate(qb, page);
  }

  private async transition(principal: Principal, id: string, action: keyof typeof TRANSITIONS): Promise<CampaignEntity> {
    const { from, to } = TRANSITIONS[action];
    const orgId = requireOrgId(principal.orgId);
    return this.dataSource.transaction(async (tx) => {
      const current = await this.get(principal, id);
      // Conditional on the status we read: a concurrent change makes this a CONFLICT, never a lost update.
      const result = await tx
        .createQueryBuilder()
        .update(CampaignEntity)
        .set({ status: to, ...(action === 'launch' ? { launchedAt: this.clock.now() } : {}) })
        .where('id = :id AND org_id = :orgId AND status IN (:...from)', { id, orgId, from })
        .execute();
      if (!result.affected) {
        throw new DomainException(ErrorCode.CONFLICT, `cannot ${action} a campaign that is ${current.status} (only from ${from.join(' or ')})`);
      }
      if (action === 'cancel') {
        await tx.getRepository(ExecutionEntity).update({ campaignId: id, orgId, status: In(['queued']) }, { status: 'cancelled' });
      }
      return tx.getRepository(CampaignEntity).findOneByOrFail({ id, orgId });
    });
  }
}
