import { CampaignService } from '#libs/campaigns';
import { DomainException, ErrorCode } from '#libs/common';
import { isUuid, requireOrgId } from '#libs/database';
import { Role, requireRole, requireUser, type Principal } from '#libs/identity';
import { annotationAgreement, suggestionAccuracy, taxonomyDistribution, type AnnotationAgreement, type TaxonomyDistribution } from '#libs/metrics';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { AnnotationCampaignEntity, type AdjudicatedLabel, type Label } from '../entities/annotation.entity.js';
import { CodebookVersionEntity } from '../entities/codebook.entity.js';
import { AnnotationService, validateLabels } from './annotation.service.js';
import { codebookPatterns } from './codebook.service.js';

/** One item's final labels: agreed by all annotators, or adjudicated. */
export interface FinalLabels {
  itemId: string;
  executionId: string;
  agent: string;
  mode: string;
  benchmark: string;
  suite: string;
  task: string;
  repetition: number;
  status: 'agreed' | 'adjudicated';
  labels: (Label | AdjudicatedLabel)[];
  adjudicationRationale: string | null;
}

export interface AnnotationResults {
  codebookVersionId: string;
  /** Items with both annotator slots submitted (their latest revisions, before adjudication). */
  doubleCoded: number;
  agreement: AnnotationAgreement | null;
  /** Items with final labels. */
  final: number;
  distribution: TaxonomyDistribution;
  suggestionAccuracy: ReturnType<typeof suggestionAccuracy>;
}

export interface FailureViewData {
  available: boolean;
  reason: string | null;
  annotationCampaignId: string | null;
  results: AnnotationResults | null;
}

/**
 * What annotation measures, all from libs/metrics: Cohen's kappa per pattern,
 * pooled and rolled up (slot 1 vs slot 2, pre-adjudication), the taxonomy
 * distribution of final labels per agent, and how well the detectors'
 * suggestions match the final labels. Also the export and import of final
 * labels.
 */
@Injectable()
export class AnnotationResultsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly annotations: AnnotationService,
    private readonly campaigns: CampaignService,
  ) {}

  async results(principal: Principal, annotationCampaignId: string): Promise<AnnotationResults> {
    requireRole(principal, Role.ANNOTATOR, 'annotationResults');
    return this.compute(await this.annotations.getCampaign(principal, annotationCampaignId));
  }

  /**
   * The failure view of a run campaign (its latest annotation campaign): for
   * the campaign's org, or anyone when the campaign is public (aggregates
   * only). Empty, with the reason, before there are final labels.
   */
  async failureView(principal: Principal | null, campaignId: string): Promise<FailureViewData> {
    const campaign = await this.campaigns.getVisible(principal, campaignId);
    const [latest] = await this.dataSource.getRepository(AnnotationCampaignEntity).find({ where: { campaignId: campaign.id, orgId: campaign.orgId }, order: { createdAt: 'DESC' }, take: 1 });
    if (!latest) {
      return { available: false, reason: 'No annotation campaign over this campaign yet: create one (createAnnotationCampaign) to label its trajectories.', annotationCampaignId: null, results: null };
    }
    const results = await this.compute(latest);
    if (results.final === 0) {
      return { available: false, reason: `Annotation campaign "${latest.name}" has no final labels yet (agreed or adjudicated items).`, annotationCampaignId: latest.id, results };
    }
    return { available: true, reason: null, annotationCampaignId: latest.id, results };
  }

  async finalLabels(principal: Principal, annotationCampaignId: string): Promise<FinalLabels[]> {
    requireRole(principal, Role.ANNOTATOR, 'exportAnnotations');
    const campaign = await this.annotations.getCampaign(principal, annotationCampaignId);
    return this.final(campaign.id);
  }

  /**
   * Final labels done elsewhere, one per execution: recorded as adjudications
   * (source "new", the importer as adjudicator) of items not yet final.
   * All or nothing; an execution that is not an item, or already final, is
   * an error naming its line.
   */
  async importFinal(principal: Principal, annotationCampaignId: string, lines: { executionId: string; labels: unknown; rationale?: string }[]): Promise<{ imported: number }> {
    requireRole(principal, Role.ADJUDICATOR, 'importAnnotations');
    // A user adjudicator, admin or owner; or an API key of an admin or owner (keys carry no user, so no adjudicator role).
    const allowed = principal.kind === 'api_key' ? new Set([Role.ADMIN, Role.OWNER]) : new Set([Role.ADJUDICATOR, Role.ADMIN, Role.OWNER]);
    if (!allowed.has(principal.role)) throw new DomainException(ErrorCode.FORBIDDEN, `importing final labels needs one of the roles ${[...allowed].join(', ')}${principal.kind === 'api_key' ? ' (for an API key)' : ''}; you have ${principal.role}`);
    const userId = principal.kind === 'api_key' ? null : requireUser(principal, 'importAnnotations');
    const orgId = requireOrgId(principal.orgId);
    const campaign = await this.annotations.getCampaign(principal, annotationCampaignId);
    const version = await this.dataSource.getRepository(CodebookVersionEntity).findOneByOrFail({ id: campaign.codebookVersionId });
    return this.dataSource.transaction(async (tx) => {
      let imported = 0;
      for (const [i, line] of lines.entries()) {
        const field = `lines[${i}]`;
        if (!line || typeof line.executionId !== 'string' || !isUuid(line.executionId)) throw DomainException.badInput(`${field}.executionId`, 'the id of an execution of the annotation campaign', line?.executionId);
        const labels = validateLabels(line.labels, version.nodes, `${field}.labels`);
        const [item] = await tx.query('SELECT id, status FROM annotation_items WHERE annotation_campaign_id = $1 AND execution_id = $2 FOR UPDATE', [campaign.id, line.executionId]);
        if (!item) throw DomainException.badInput(`${field}.executionId`, 'an execution that is an item of this annotation campaign', line.executionId);
        if (item.status === 'agreed' || item.status === 'adjudicated') throw new DomainException(ErrorCode.CONFLICT, `${field}: execution ${line.executionId} already has final labels (${item.status})`, `${field}.executionId`);
        const rationale = typeof line.rationale === 'string' && line.rationale.trim() ? line.rationale.trim() : 'imported';
        await tx.query(
          `INSERT INTO adjudications (id, org_id, item_id, adjudicator_user_id, imported_by_api_key_id, labels, rationale) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
          [randomUUID(), orgId, item.id, userId, principal.apiKeyId, JSON.stringify(labels.map((l) => ({ pattern: l.pattern, rationale: l.rationale, source: 'new' }))), rationale],
        );
        await tx.query(`UPDATE annotation_items SET status = 'adjudicated', updated_at = now() WHERE id = $1`, [item.id]);
        imported++;
      }
      return { imported };
    });
  }

  private async final(annotationCampaignId: string): Promise<FinalLabels[]> {
    const rows: {
      item_id: string;
      execution_id: string;
      agent: string;
      mode: string;
      benchmark: string;
      suite: string;
      task: string;
      repetition: number;
      status: 'agreed' | 'adjudicated';
      agreed: Label[] | null;
      adjudicated: AdjudicatedLabel[] | null;
      rationale: string | null;
    }[] = await this.dataSource.query(
      `SELECT i.id AS item_id, e.id AS execution_id, e.agent_name AS agent, e.mode, e.benchmark_key AS benchmark, e.suite_key AS suite, e.task_key AS task, e.repetition,
              i.status,
              (SELECT a.labels FROM annotations a WHERE a.item_id = i.id AND a.slot = 1 ORDER BY a.revision DESC LIMIT 1) AS agreed,
              d.labels AS adjudicated, d.rationale
         FROM annotation_items i JOIN executions e ON e.id = i.execution_id LEFT JOIN adjudications d ON d.item_id = i.id
        WHERE i.annotation_campaign_id = $1 AND i.status IN ('agreed', 'adjudicated')
        ORDER BY e.agent_name, e.benchmark_key, e.suite_key, e.task_key, e.repetition, e.mode, i.id`,
      [annotationCampaignId],
    );
    return rows.map((r) => ({
      itemId: r.item_id,
      executionId: r.execution_id,
      agent: r.agent,
      mode: r.mode,
      benchmark: r.benchmark,
      suite: r.suite,
      task: r.task,
      repetition: r.repetition,
      status: r.status,
      labels: (r.status === 'adjudicated' ? r.adjudicated : r.agreed) ?? [],
      adjudicationRationale: r.status === 'adjudicated' ? r.rationale : null,
    }));
  }

  private async compute(campaign: AnnotationCampaignEntity): Promise<AnnotationResults> {
    const version = await this.dataSource.getRepository(CodebookVersionEntity).findOneByOrFail({ id: campaign.codebookVersionId });
    const codebook = codebookPatterns(version.nodes);
    const slots: { item_id: string; slot: number; labels: Label[] }[] = await this.dataSource.query(
      `SELECT DISTINCT ON (a.item_id, a.slot) a.item_id, a.slot, a.labels FROM annotations a JOIN annotation_items i ON i.id = a.item_id
        WHERE i.annotation_campaign_id = $1 AND a.slot IN (1, 2) ORDER BY a.item_id, a.slot, a.revision DESC`,
      [campaign.id],
    );
    const byItem = new Map<string, { slot1?: string[]; slot2?: string[] }>();
    for (const s of slots) {
      const entry = byItem.get(s.item_id) ?? {};
      entry[s.slot === 1 ? 'slot1' : 'slot2'] = s.labels.map((l) => l.pattern);
      byItem.set(s.item_id, entry);
    }
    const doubly = [...byItem.entries()]
      .filter(([, e]) => e.slot1 && e.slot2)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([trajectoryId, e]) => ({ trajectoryId, slot1: e.slot1!, slot2: e.slot2! }));
    const final = await this.final(campaign.id);
    const suggestions: { item_id: string; pattern: string }[] = await this.dataSource.query(
      `SELECT DISTINCT s.item_id, s.pattern FROM annotation_suggestions s JOIN annotation_items i ON i.id = s.item_id WHERE i.annotation_campaign_id = $1`,
      [campaign.id],
    );
    const suggested = new Map<string, string[]>();
    for (const s of suggestions) suggested.set(s.item_id, [...(suggested.get(s.item_id) ?? []), s.pattern]);
    const detectorPatterns = [...new Set(suggestions.map((s) => s.pattern))].sort();
    return {
      codebookVersionId: version.id,
      doubleCoded: doubly.length,
      agreement: doubly.length === 0 ? null : annotationAgreement(codebook, doubly),
      final: final.length,
      distribution: taxonomyDistribution(
        codebook,
        final.map((f) => ({ trajectoryId: f.itemId, agent: f.agent, patterns: f.labels.map((l) => l.pattern) })),
      ),
      suggestionAccuracy: suggestionAccuracy(
        final.map((f) => ({ itemId: f.itemId, suggested: suggested.get(f.itemId) ?? [], final: f.labels.map((l) => l.pattern) })),
        detectorPatterns.length ? detectorPatterns : ['concurrent_writes', 'fanout_budget_exhaustion', 'premature_termination'],
      ),
    };
  }
}
