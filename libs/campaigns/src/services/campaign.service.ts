import { Clock, DomainException, ErrorCode, type Page, type PageArgs } from '#libs/common';
import type { CampaignManifest } from '#libs/contracts';
import { isUuid, paginate, queryReturning, requireOrgId } from '#libs/database';
import { Role, requireRole, type Principal } from '#libs/identity';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { In, type DataSource, type EntityManager } from 'typeorm';
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
    const org = await this.orgBudget(campaign.orgId);
    if (org.billingHold) {
      throw new DomainException(ErrorCode.PAYMENT_REQUIRED, "the organization's last invoice is unpaid: campaigns can be launched again once it is paid");
    }
    if (org.capMicros !== null && org.spentMicros >= org.capMicros) {
      throw new DomainException(
        ErrorCode.BUDGET_EXCEEDED,
        `the organization has spent $${(org.spentMicros / 1e6).toFixed(2)} of its $${(org.capMicros / 1e6).toFixed(2)} monthly budget; raise monthlyBudgetUsd to launch`,
      );
    }
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

  /**
   * Sets a campaign's cap. Raising it above what was spent resumes a campaign
   * the cap paused, and requeues the executions the cap cancelled (as new
   * attempts; what they recorded is kept). Lowering it below the spend pauses
   * the campaign at the next recorded call, as any cap does.
   */
  async updateBudget(principal: Principal, id: string, budgetUsd: number): Promise<CampaignEntity> {
    requireRole(principal, Role.MEMBER, 'updateCampaignBudget');
    if (!Number.isFinite(budgetUsd) || budgetUsd <= 0 || budgetUsd > 1e9) throw DomainException.badInput('budgetUsd', 'a number of dollars greater than 0 (at most 1e9)', budgetUsd);
    const micros = Math.round(budgetUsd * 1e6);
    const orgId = requireOrgId(principal.orgId);
    await this.get(principal, id);
    return this.dataSource.transaction(async (tx) => {
      const [row] = await tx.query('SELECT spent_micros FROM campaigns WHERE id = $1 AND org_id = $2 FOR UPDATE', [id, orgId]);
      await tx.query('UPDATE campaigns SET budget_micros = $3, updated_at = now() WHERE id = $1 AND org_id = $2', [id, orgId, micros]);
      if (Number(row.spent_micros) < micros) await resumeBudgetPaused(tx, { campaignId: id, reasons: ['budget'] });
      return tx.getRepository(CampaignEntity).findOneByOrFail({ id, orgId });
    });
  }

  /**
   * The org's monthly cap (null: none) and the URL its budget alerts are
   * posted to (null: none). Raising the cap above this month's spend resumes
   * the campaigns it paused (those whose own cap has room).
   */
  async updateOrganizationBudget(
    principal: Principal,
    input: { monthlyBudgetUsd?: number | null; alertWebhookUrl?: string | null },
  ): Promise<{ monthlyBudgetMicros: number | null; alertWebhookUrl: string | null; spentMicros: number; resumedCampaigns: string[] }> {
    requireRole(principal, Role.ADMIN, 'updateOrganizationBudget');
    const orgId = requireOrgId(principal.orgId);
    const { monthlyBudgetUsd, alertWebhookUrl } = input;
    if (monthlyBudgetUsd != null && (!Number.isFinite(monthlyBudgetUsd) || monthlyBudgetUsd <= 0 || monthlyBudgetUsd > 1e9)) {
      throw DomainException.badInput('monthlyBudgetUsd', 'a number of dollars greater than 0 (at most 1e9), or null for no cap', monthlyBudgetUsd);
    }
    if (alertWebhookUrl != null) {
      let url: URL | null = null;
      try {
        url = new URL(alertWebhookUrl);
      } catch {
        url = null;
      }
      if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || alertWebhookUrl.length > 2_000) {
        throw DomainException.badInput('alertWebhookUrl', 'an http(s) URL of at most 2000 characters, or null', alertWebhookUrl);
      }
    }
    return this.dataSource.transaction(async (tx) => {
      const sets: string[] = [];
      const params: unknown[] = [orgId];
      if (monthlyBudgetUsd !== undefined) {
        params.push(monthlyBudgetUsd === null ? null : Math.round(monthlyBudgetUsd * 1e6));
        sets.push(`monthly_budget_micros = $${params.length}`);
      }
      if (alertWebhookUrl !== undefined) {
        params.push(alertWebhookUrl);
        sets.push(`alert_webhook_url = $${params.length}`);
      }
      if (sets.length > 0) await tx.query(`UPDATE organizations SET ${sets.join(', ')} WHERE id = $1`, params);
      const resumedCampaigns = await resumeBudgetPaused(tx, { orgId, reasons: ['org_budget'] });
      const [row] = await tx.query(
        `SELECT o.monthly_budget_micros AS cap, o.alert_webhook_url AS url,
                COALESCE((SELECT spent_micros FROM org_spend s WHERE s.org_id = o.id AND s.month = date_trunc('month', now() AT TIME ZONE 'UTC')::date), 0) AS spent
           FROM organizations o WHERE o.id = $1`,
        [orgId],
      );
      return { monthlyBudgetMicros: row.cap === null ? null : Number(row.cap), alertWebhookUrl: row.url, spentMicros: Number(row.spent), resumedCampaigns };
    });
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

  /** The caller's org: its monthly cap, alert webhook, and this month's spend and reservations. */
  async organizationBudget(principal: Principal): Promise<{ monthlyBudgetMicros: number | null; alertWebhookUrl: string | null; spentMicros: number; reservedMicros: number }> {
    const orgId = requireOrgId(principal.orgId);
    const [row] = await this.dataSource.query(
      `SELECT o.monthly_budget_micros AS cap, o.alert_webhook_url AS url, COALESCE(s.spent_micros, 0) AS spent, COALESCE(s.reserved_micros, 0) AS reserved
         FROM organizations o LEFT JOIN org_spend s ON s.org_id = o.id AND s.month = date_trunc('month', now() AT TIME ZONE 'UTC')::date
        WHERE o.id = $1`,
      [orgId],
    );
    return { monthlyBudgetMicros: row.cap === null ? null : Number(row.cap), alertWebhookUrl: row.url, spentMicros: Number(row.spent), reservedMicros: Number(row.reserved) };
  }

  /** This month's spend of the org against its cap, and whether billing holds new launches. */
  private async orgBudget(orgId: string): Promise<{ capMicros: number | null; spentMicros: number; billingHold: boolean }> {
    const [row] = await this.dataSource.query(
      `SELECT o.monthly_budget_micros AS cap, o.billing_hold AS hold,
              COALESCE((SELECT spent_micros FROM org_spend s WHERE s.org_id = o.id AND s.month = date_trunc('month', now() AT TIME ZONE 'UTC')::date), 0) AS spent
         FROM organizations o WHERE o.id = $1`,
      [orgId],
    );
    return { capMicros: row.cap === null ? null : Number(row.cap), spentMicros: Number(row.spent), billingHold: row.hold };
  }

  private async transition(principal: Principal, id: string, action: keyof typeof TRANSITIONS): Promise<CampaignEntity> {
    const { from, to } = TRANSITIONS[action];
    const orgId = requireOrgId(principal.orgId);
    if (action === 'resume') {
      const current = await this.get(principal, id);
      const org = await this.orgBudget(orgId);
      if (current.spentMicros >= current.budgetMicros) {
        throw new DomainException(ErrorCode.BUDGET_EXCEEDED, `the campaign has spent $${(current.spentMicros / 1e6).toFixed(2)} of its $${(current.budgetMicros / 1e6).toFixed(2)} cap; raise its budget to resume`);
      }
      if (org.capMicros !== null && org.spentMicros >= org.capMicros) {
        throw new DomainException(ErrorCode.BUDGET_EXCEEDED, `the organization has reached its $${(org.capMicros / 1e6).toFixed(2)} monthly budget; raise it to resume`);
      }
    }
    return this.dataSource.transaction(async (tx) => {
      const current = await this.get(principal, id);
      // Conditional on the status we read: a concurrent change makes this a CONFLICT, never a lost update.
      const result = await tx
        .createQueryBuilder()
        .update(CampaignEntity)
        .set({ status: to, pauseReason: action === 'pause' ? 'user' : null, ...(action === 'launch' ? { launchedAt: this.clock.now() } : {}) })
        .where('id = :id AND org_id = :orgId AND status IN (:...from)', { id, orgId, from })
        .execute();
      if (!result.affected) {
        throw new DomainException(ErrorCode.CONFLICT, `cannot ${action} a campaign that is ${current.status} (only from ${from.join(' or ')})`);
      }
      if (action === 'cancel') {
        await tx.getRepository(ExecutionEntity).update({ campaignId: id, orgId, status: In(['queued', 'cancelled_budget']) }, { status: 'cancelled' });
      }
      if (action === 'resume') await requeueBudgetCancelled(tx, [id]);
      return tx.getRepository(CampaignEntity).findOneByOrFail({ id, orgId });
    });
  }
}

/**
 * Resumes campaigns a cap paused (`reasons`): of one campaign, or every such
 * campaign of an org whose own cap still has room, and requeues what the cap
 * cancelled. Returns the resumed campaign ids.
 */
export async function resumeBudgetPaused(
  tx: EntityManager,
  scope: { campaignId: string; reasons: ('budget' | 'org_budget')[] } | { orgId: string; reasons: ('budget' | 'org_budget')[] },
): Promise<string[]> {
  const resumed: { id: string }[] = await queryReturning(
    tx,
    `UPDATE campaigns SET status = 'running', pause_reason = NULL, updated_at = now()
      WHERE status = 'paused' AND pause_reason = ANY($2::text[]) AND spent_micros < budget_micros
        AND ${'campaignId' in scope ? 'id' : 'org_id'} = $1
        AND NOT EXISTS (SELECT 1 FROM organizations o JOIN org_spend s ON s.org_id = o.id AND s.month = date_trunc('month', now() AT TIME ZONE 'UTC')::date
                         WHERE o.id = campaigns.org_id AND o.monthly_budget_micros IS NOT NULL AND s.spent_micros >= o.monthly_budget_micros)
      RETURNING id`,
    ['campaignId' in scope ? scope.campaignId : scope.orgId, scope.reasons],
  );
  await requeueBudgetCancelled(tx, resumed.map((r) => r.id));
  return resumed.map((r) => r.id);
}

/** Executions a cap stopped run again from the start, as a new attempt (the old attempt's events and spend stay recorded). */
async function requeueBudgetCancelled(tx: EntityManager, campaignIds: string[]): Promise<void> {
  if (campaignIds.length === 0) return;
  await tx.query(
    `UPDATE executions SET status = 'queued', finished_at = NULL, next_attempt_at = NULL, last_error = NULL, updated_at = now()
      WHERE campaign_id = ANY($1::uuid[]) AND status = 'cancelled_budget'`,
    [campaignIds],
  );
}
