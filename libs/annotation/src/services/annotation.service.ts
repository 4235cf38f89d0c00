import { CampaignService } from '#libs/campaigns';
import { DomainException, ErrorCode, type Page, type PageArgs } from '#libs/common';
import { isUuid, paginate, requireOrgId } from '#libs/database';
import { Role, requireRole, requireUser, type Principal } from '#libs/identity';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import {
  AdjudicationEntity,
  AnnotationAssignmentEntity,
  AnnotationCampaignEntity,
  AnnotationCommentEntity,
  AnnotationEntity,
  AnnotationItemEntity,
  AnnotationSuggestionEntity,
  type AdjudicatedLabel,
  type ItemStatus,
  type Label,
} from '../entities/annotation.entity.js';
import type { CodebookNode } from '../entities/codebook.entity.js';
import { NO_FAILURE } from '../starter-codebook.js';
import { CodebookService } from './codebook.service.js';
import { suggestForItems } from './suggestions.js';

/** Who may label: annotators and adjudicators, and the org's admins and owners. Members and viewers may not. */
const LABELLERS = new Set<Role>([Role.ANNOTATOR, Role.ADJUDICATOR, Role.ADMIN, Role.OWNER]);
/** Who may adjudicate: adjudicators, admins and owners, never on an item they labelled. */
const ADJUDICATORS = new Set<Role>([Role.ADJUDICATOR, Role.ADMIN, Role.OWNER]);
const DOUBLE_CODED: readonly ItemStatus[] = ['double_coded', 'agreed', 'disagreed', 'adjudicated'];

function requireAmong(principal: Principal, roles: Set<Role>, action: string): string {
  if (!roles.has(principal.role)) throw new DomainException(ErrorCode.FORBIDDEN, `${action} needs one of the roles ${[...roles].join(', ')}; you have ${principal.role}`);
  return requireUser(principal, action);
}

export interface CreateAnnotationCampaignInput {
  campaignId: string;
  codebookVersionId: string;
  name: string;
  /** Which executions: every one with a result in these modes (default: concurrent), or this explicit list. */
  modes?: string[] | null;
  executionIds?: string[] | null;
  annotatorsPerItem?: number | null;
  blind?: boolean | null;
  reservationMinutes?: number | null;
}

export interface ItemView {
  item: AnnotationItemEntity;
  campaign: AnnotationCampaignEntity;
  mine: AnnotationEntity[];
  /** Slot of the caller on this item, if any. */
  mySlot: number | null;
  /** Why the others' labels are hidden, when they are. */
  hiddenReason: string | null;
}

/** Checks a label set against a codebook: known patterns once each, a rationale for each, "no failure" alone. */
export function validateLabels(input: unknown, nodes: readonly CodebookNode[], field = 'labels'): Label[] {
  const patterns = new Set(nodes.filter((n) => n.level === 'pattern').map((n) => n.key));
  if (!Array.isArray(input) || input.length === 0 || input.length > 100) throw DomainException.badInput(field, `1 to 100 labels (choose "${NO_FAILURE}" explicitly when nothing applies)`, input);
  const seen = new Set<string>();
  const labels = input.map((raw, i) => {
    const l = raw as Record<string, unknown>;
    if (typeof l?.pattern !== 'string' || !patterns.has(l.pattern)) throw DomainException.badInput(`${field}[${i}].pattern`, 'a pattern key of the codebook version', l?.pattern);
    if (seen.has(l.pattern)) throw DomainException.badInput(`${field}[${i}].pattern`, 'each pattern once', l.pattern);
    seen.add(l.pattern);
    if (typeof l.rationale !== 'string' || l.rationale.trim() === '' || l.rationale.length > 5_000) throw DomainException.badInput(`${field}[${i}].rationale`, 'a rationale of 1 to 5000 characters', l.rationale);
    const evidence = (l.evidence ?? []) as unknown[];
    if (!Array.isArray(evidence) || evidence.length > 50) throw DomainException.badInput(`${field}[${i}].evidence`, 'at most 50 evidence entries', l.evidence);
    const cleanEvidence = evidence.map((e, j) => {
      const ev = (e ?? {}) as Record<string, unknown>;
      const text = (k: string) => (ev[k] == null ? null : typeof ev[k] === 'string' && (ev[k] as string).length <= 200 ? (ev[k] as string) : (() => { throw DomainException.badInput(`${field}[${i}].evidence[${j}].${k}`, 'a string of at most 200 characters', ev[k]); })());
      const time = (k: string) => {
        const v = text(k);
        if (v !== null && Number.isNaN(Date.parse(v))) throw DomainException.badInput(`${field}[${i}].evidence[${j}].${k}`, 'an ISO date-time', v);
        return v;
      };
      const out = { eventId: text('eventId'), agentId: text('agentId'), from: time('from'), to: time('to') };
      if (!out.eventId && !out.agentId) throw DomainException.badInput(`${field}[${i}].evidence[${j}]`, 'an eventId, or an agentId with an optional time range');
      return out;
    });
    return { pattern: l.pattern, rationale: l.rationale.trim(), ...(cleanEvidence.length ? { evidence: cleanEvidence } : {}) };
  });
  if (seen.has(NO_FAILURE) && seen.size > 1) throw DomainException.badInput(field, `"${NO_FAILURE}" alone, or failure patterns without it`, [...seen]);
  return labels;
}

const patternSet = (labels: readonly { pattern: string }[]) => [...new Set(labels.map((l) => l.pattern))].sort().join('\u001f');

/**
 * Double-blind labelling of a campaign's trajectories: items assigned to
 * distinct annotators (balanced, reservations that expire), immutable
 * submissions with revisions, agreement when all are in, discussion, and
 * adjudication by an adjudicator who did not label the item.
 */
@Injectable()
export class AnnotationService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly campaigns: CampaignService,
    private readonly codebooks: CodebookService,
  ) {}

  async createCampaign(principal: Principal, input: CreateAnnotationCampaignInput): Promise<AnnotationCampaignEntity> {
    requireRole(principal, Role.MEMBER, 'createAnnotationCampaign');
    const orgId = requireOrgId(principal.orgId);
    const campaign = await this.campaigns.get(principal, input.campaignId);
    const version = await this.codebooks.getVersion(principal, input.codebookVersionId);
    if (version.status !== 'published') throw DomainException.badInput('codebookVersion', 'a published codebook version (publish the draft first)', input.codebookVersionId);
    if (typeof input.name !== 'string' || input.name.trim() === '' || input.name.length > 200) throw DomainException.badInput('name', 'a name of 1 to 200 characters', input.name);
    const perItem = input.annotatorsPerItem ?? 2;
    if (!Number.isInteger(perItem) || perItem < 2 || perItem > 5) throw DomainException.badInput('annotatorsPerItem', 'an integer from 2 to 5', perItem);
    const reservation = input.reservationMinutes ?? 30;
    if (!Number.isInteger(reservation) || reservation < 1 || reservation > 7 * 24 * 60) throw DomainException.badInput('reservationMinutes', 'an integer from 1 to 10080', reservation);
    const modes = input.modes?.length ? input.modes : ['concurrent'];
    const explicit = input.executionIds?.length ? input.executionIds : null;
    if (explicit && explicit.some((id) => !isUuid(id))) throw DomainException.badInput('executions', 'execution ids of this campaign', explicit);

    return this.dataSource.transaction(async (tx) => {
      const executions: { id: string; agent_name: string; paired: string | null }[] = await tx.query(
        `SELECT e.id, e.agent_name,
                (SELECT p.id FROM executions p WHERE p.campaign_id = e.campaign_id AND p.agent_config_version_id = e.agent_config_version_id
                    AND p.task_id = e.task_id AND p.repetition = e.repetition AND p.mode <> e.mode
                  ORDER BY (p.mode = 'sequential') DESC, p.mode LIMIT 1) AS paired
           FROM executions e
          WHERE e.campaign_id = $1 AND e.org_id = $2 AND e.outcome IS NOT NULL
            AND (CASE WHEN $4::uuid[] IS NULL THEN e.mode = ANY($3::text[]) ELSE e.id = ANY($4::uuid[]) END)
          ORDER BY e.created_at, e.id`,
        [campaign.id, orgId, modes, explicit],
      );
      if (explicit && executions.length !== new Set(explicit).size) throw DomainException.badInput('executions', 'ids of executions of this campaign that have a result', explicit);
      if (executions.length === 0) throw DomainException.badInput('modes', `modes with executions that have a result (none in ${modes.join(', ')})`, modes);
      const annotationCampaign = {
        id: randomUUID(),
        orgId,
        campaignId: campaign.id,
        codebookVersionId: version.id,
        name: input.name.trim(),
        annotatorsPerItem: perItem,
        blind: input.blind ?? true,
        reservationMinutes: reservation,
        createdByUserId: principal.userId,
      };
      await tx.getRepository(AnnotationCampaignEntity).insert(annotationCampaign);
      const items = executions.map((e) => ({
        id: randomUUID(),
        orgId,
        annotationCampaignId: annotationCampaign.id,
        executionId: e.id,
        pairedExecutionId: e.paired,
        agentName: e.agent_name,
        status: 'pending' as const,
        doubleCodedAt: null,
      }));
      for (let i = 0; i < items.length; i += 1_000) await tx.getRepository(AnnotationItemEntity).insert(items.slice(i, i + 1_000));
      await suggestForItems(tx, orgId, items);
      return tx.getRepository(AnnotationCampaignEntity).findOneByOrFail({ id: annotationCampaign.id });
    });
  }

  async getCampaign(principal: Principal, id: string, tx: EntityManager = this.dataSource.manager): Promise<AnnotationCampaignEntity> {
    const orgId = requireOrgId(principal.orgId);
    const found = isUuid(id) ? await tx.getRepository(AnnotationCampaignEntity).findOneBy({ id, orgId }) : null;
    if (!found) throw DomainException.notFound('annotation campaign', id);
    return found;
  }

  async listCampaigns(principal: Principal, campaignId?: string | null): Promise<AnnotationCampaignEntity[]> {
    requireRole(principal, Role.ANNOTATOR, 'annotationCampaigns');
    const orgId = requireOrgId(principal.orgId);
    if (campaignId) await this.campaigns.get(principal, campaignId);
    return this.dataSource.getRepository(AnnotationCampaignEntity).find({ where: { orgId, ...(campaignId ? { campaignId } : {}) }, order: { createdAt: 'DESC' } });
  }

  /**
   * The caller's next item: the one it holds (reservation not expired and not
   * submitted), else a pending item it has not labelled with a free slot,
   * items already started first, so that double coding completes. Expired,
   * unsubmitted reservations go back to the pool first. Null when none is left.
   */
  async nextItem(principal: Principal, annotationCampaignId: string): Promise<{ item: AnnotationItemEntity; assignment: AnnotationAssignmentEntity } | null> {
    const userId = requireAmong(principal, LABELLERS, 'nextAnnotationItem');
    return this.dataSource.transaction(async (tx) => {
      const campaign = await this.getCampaign(principal, annotationCampaignId, tx);
      await tx.query(
        `DELETE FROM annotation_assignments a USING annotation_items i
          WHERE a.item_id = i.id AND i.annotation_campaign_id = $1 AND a.submitted_at IS NULL AND a.reserved_until < now()`,
        [campaign.id],
      );
      const [held] = await tx.query(
        `SELECT a.id FROM annotation_assignments a JOIN annotation_items i ON i.id = a.item_id
          WHERE i.annotation_campaign_id = $1 AND a.annotator_user_id = $2 AND a.submitted_at IS NULL ORDER BY a.created_at LIMIT 1`,
        [campaign.id, userId],
      );
      if (held) {
        const assignment = await tx.getRepository(AnnotationAssignmentEntity).findOneByOrFail({ id: held.id });
        return { item: await tx.getRepository(AnnotationItemEntity).findOneByOrFail({ id: assignment.itemId }), assignment };
      }
      const [free] = await tx.query(
        `SELECT i.id FROM annotation_items i
          WHERE i.annotation_campaign_id = $1 AND i.status = 'pending'
            AND NOT EXISTS (SELECT 1 FROM annotation_assignments a WHERE a.item_id = i.id AND a.annotator_user_id = $2)
            AND (SELECT count(*) FROM annotation_assignments a WHERE a.item_id = i.id) < $3
          ORDER BY (SELECT count(*) FROM annotation_assignments a WHERE a.item_id = i.id) DESC, i.created_at, i.id
          LIMIT 1 FOR UPDATE OF i SKIP LOCKED`,
        [campaign.id, userId, campaign.annotatorsPerItem],
      );
      if (!free) return null;
      const taken: { slot: number }[] = await tx.query('SELECT slot FROM annotation_assignments WHERE item_id = $1', [free.id]);
      let slot = 1;
      while (taken.some((t) => t.slot === slot)) slot++;
      const assignment = {
        id: randomUUID(),
        orgId: campaign.orgId,
        itemId: free.id,
        annotatorUserId: userId,
        slot,
        reservedUntil: new Date(Date.now() + campaign.reservationMinutes * 60_000),
        submittedAt: null,
      };
      await tx.getRepository(AnnotationAssignmentEntity).insert(assignment);
      return {
        item: await tx.getRepository(AnnotationItemEntity).findOneByOrFail({ id: free.id }),
        assignment: await tx.getRepository(AnnotationAssignmentEntity).findOneByOrFail({ id: assignment.id }),
      };
    });
  }

  /** An item of the caller's org, with the caller's own labels and whether it may see the others'. */
  async item(principal: Principal, itemId: string): Promise<ItemView> {
    requireRole(principal, Role.ANNOTATOR, 'annotationItem');
    const orgId = requireOrgId(principal.orgId);
    const item = isUuid(itemId) ? await this.dataSource.getRepository(AnnotationItemEntity).findOneBy({ id: itemId, orgId }) : null;
    if (!item) throw DomainException.notFound('annotation item', itemId);
    const campaign = await this.dataSource.getRepository(AnnotationCampaignEntity).findOneByOrFail({ id: item.annotationCampaignId });
    const mySlot: { slot: number }[] = principal.userId
      ? await this.dataSource.query('SELECT slot FROM annotation_assignments WHERE item_id = $1 AND annotator_user_id = $2', [item.id, principal.userId])
      : [];
    const mine = principal.userId
      ? await this.dataSource.getRepository(AnnotationEntity).find({ where: { itemId: item.id, annotatorUserId: principal.userId }, order: { revision: 'ASC' } })
      : [];
    const open = DOUBLE_CODED.includes(item.status) || !campaign.blind;
    return {
      item,
      campaign,
      mine,
      mySlot: mySlot[0]?.slot ?? null,
      hiddenReason: open ? null : `item ${item.id} is blind: the annotators' labels stay hidden until all ${campaign.annotatorsPerItem} have submitted`,
    };
  }

  /** Every annotator's submissions of an item (all revisions): refused while the item is blind and not yet double-coded. */
  async annotationsOf(principal: Principal, itemId: string): Promise<AnnotationEntity[]> {
    const view = await this.item(principal, itemId);
    if (view.hiddenReason) throw new DomainException(ErrorCode.FORBIDDEN, view.hiddenReason);
    return this.dataSource.getRepository(AnnotationEntity).find({ where: { itemId: view.item.id }, order: { slot: 'ASC', revision: 'ASC' } });
  }

  /**
   * Submits the caller's labels for an item it holds (a first submission),
   * or a correction (a new revision; the earlier stays). When every slot has
   * submitted the item is double-coded and, comparing the latest revisions,
   * agreed or disagreed.
   */
  async submit(principal: Principal, itemId: string, labelsInput: unknown): Promise<AnnotationEntity> {
    const userId = requireAmong(principal, LABELLERS, 'submitAnnotation');
    const orgId = requireOrgId(principal.orgId);
    return this.dataSource.transaction(async (tx) => {
      const item = isUuid(itemId) ? await tx.getRepository(AnnotationItemEntity).createQueryBuilder('i').setLock('pessimistic_write').where('i.id = :itemId AND i.orgId = :orgId', { itemId, orgId }).getOne() : null;
      if (!item) throw DomainException.notFound('annotation item', itemId);
      if (item.status === 'adjudicated') throw new DomainException(ErrorCode.CONFLICT, `item ${itemId} is adjudicated: its labels are final`);
      const campaign = await tx.getRepository(AnnotationCampaignEntity).findOneByOrFail({ id: item.annotationCampaignId });
      const assignment = await tx.getRepository(AnnotationAssignmentEntity).findOneBy({ itemId: item.id, annotatorUserId: userId });
      if (!assignment) throw new DomainException(ErrorCode.FORBIDDEN, `item ${itemId} is not assigned to you (or your reservation expired and it went back to the pool): take items with nextAnnotationItem`);
      const version = await this.codebooks.getVersion(principal, campaign.codebookVersionId, tx);
      const labels = validateLabels(labelsInput, version.nodes);
      const [{ n }] = await tx.query('SELECT count(*)::int AS n FROM annotations WHERE assignment_id = $1', [assignment.id]);
      const annotation = { id: randomUUID(), orgId, itemId: item.id, assignmentId: assignment.id, annotatorUserId: userId, slot: assignment.slot, revision: n + 1, labels };
      await tx.getRepository(AnnotationEntity).insert(annotation);
      if (!assignment.submittedAt) await tx.query('UPDATE annotation_assignments SET submitted_at = now() WHERE id = $1', [assignment.id]);
      await this.evaluate(tx, item, campaign);
      return tx.getRepository(AnnotationEntity).findOneByOrFail({ id: annotation.id });
    });
  }

  private async evaluate(tx: EntityManager, item: AnnotationItemEntity, campaign: AnnotationCampaignEntity): Promise<void> {
    const latest: { slot: number; labels: Label[] }[] = await tx.query(
      `SELECT DISTINCT ON (slot) slot, labels FROM annotations WHERE item_id = $1 ORDER BY slot, revision DESC`,
      [item.id],
    );
    if (latest.length < campaign.annotatorsPerItem) return;
    const agreed = new Set(latest.map((l) => patternSet(l.labels))).size === 1;
    await tx.query(
      `UPDATE annotation_items SET status = $2, double_coded_at = COALESCE(double_coded_at, now()), updated_at = now() WHERE id = $1 AND status <> 'adjudicated'`,
      [item.id, agreed ? 'agreed' : 'disagreed'],
    );
  }

  async comment(principal: Principal, itemId: string, body: string): Promise<AnnotationCommentEntity> {
    const userId = requireAmong(principal, LABELLERS, 'addAnnotationComment');
    const view = await this.item(principal, itemId);
    if (!DOUBLE_CODED.includes(view.item.status)) throw new DomainException(ErrorCode.CONFLICT, `item ${itemId} is not double-coded yet: the discussion opens when all annotators have submitted`);
    if (view.mySlot === null && !ADJUDICATORS.has(principal.role)) throw new DomainException(ErrorCode.FORBIDDEN, 'only the annotators of the item and adjudicators take part in its discussion');
    if (typeof body !== 'string' || body.trim() === '' || body.length > 10_000) throw DomainException.badInput('body', 'a comment of 1 to 10000 characters', body);
    const comment = { id: randomUUID(), orgId: view.item.orgId, itemId: view.item.id, authorUserId: userId, body: body.trim() };
    await this.dataSource.getRepository(AnnotationCommentEntity).insert(comment);
    return this.dataSource.getRepository(AnnotationCommentEntity).findOneByOrFail({ id: comment.id });
  }

  async comments(principal: Principal, itemId: string): Promise<AnnotationCommentEntity[]> {
    const view = await this.item(principal, itemId);
    if (view.hiddenReason) throw new DomainException(ErrorCode.FORBIDDEN, view.hiddenReason);
    return this.dataSource.getRepository(AnnotationCommentEntity).find({ where: { itemId: view.item.id }, order: { createdAt: 'ASC' } });
  }

  /**
   * The final labels of a disagreed item, each saying whether it came from
   * annotator A (slot 1), B (slot 2), both, or is new; by an adjudicator who
   * did not label this item.
   */
  async adjudicate(principal: Principal, itemId: string, labelsInput: unknown, rationale: string): Promise<AdjudicationEntity> {
    const userId = requireAmong(principal, ADJUDICATORS, 'adjudicateItem');
    const orgId = requireOrgId(principal.orgId);
    return this.dataSource.transaction(async (tx) => {
      const item = isUuid(itemId) ? await tx.getRepository(AnnotationItemEntity).createQueryBuilder('i').setLock('pessimistic_write').where('i.id = :itemId AND i.orgId = :orgId', { itemId, orgId }).getOne() : null;
      if (!item) throw DomainException.notFound('annotation item', itemId);
      if (item.status !== 'disagreed') throw new DomainException(ErrorCode.CONFLICT, `item ${itemId} is ${item.status}: only a disagreed item is adjudicated`);
      const labelled = await tx.getRepository(AnnotationAssignmentEntity).findOneBy({ itemId: item.id, annotatorUserId: userId });
      if (labelled) throw new DomainException(ErrorCode.FORBIDDEN, `you labelled item ${itemId} (slot ${labelled.slot}): another adjudicator must decide it`);
      if (typeof rationale !== 'string' || rationale.trim() === '' || rationale.length > 10_000) throw DomainException.badInput('rationale', 'a rationale of 1 to 10000 characters', rationale);
      const campaign = await tx.getRepository(AnnotationCampaignEntity).findOneByOrFail({ id: item.annotationCampaignId });
      const version = await this.codebooks.getVersion(principal, campaign.codebookVersionId, tx);
      const base = validateLabels(labelsInput, version.nodes);
      const latest: { slot: number; labels: Label[] }[] = await tx.query(`SELECT DISTINCT ON (slot) slot, labels FROM annotations WHERE item_id = $1 ORDER BY slot, revision DESC`, [item.id]);
      const inSlot = (slot: number, pattern: string) => latest.find((l) => l.slot === slot)?.labels.some((l) => l.pattern === pattern) ?? false;
      const labels: AdjudicatedLabel[] = base.map((label, i) => {
        const source = (labelsInput as { source?: unknown }[])[i]?.source;
        const a = inSlot(1, label.pattern);
        const b = inSlot(2, label.pattern);
        const actual = a && b ? 'both' : a ? 'A' : b ? 'B' : 'new';
        if (source !== actual) throw DomainException.badInput(`labels[${i}].source`, `"${actual}" (annotator A ${a ? 'chose' : 'did not choose'} it, B ${b ? 'chose' : 'did not choose'} it)`, source);
        return { pattern: label.pattern, rationale: label.rationale, source: actual };
      });
      const adjudication = { id: randomUUID(), orgId, itemId: item.id, adjudicatorUserId: userId, importedByApiKeyId: null, labels, rationale: rationale.trim() };
      await tx.getRepository(AdjudicationEntity).insert(adjudication);
      await tx.query(`UPDATE annotation_items SET status = 'adjudicated', updated_at = now() WHERE id = $1`, [item.id]);
      return tx.getRepository(AdjudicationEntity).findOneByOrFail({ id: adjudication.id });
    });
  }

  async adjudicationOf(principal: Principal, itemId: string): Promise<AdjudicationEntity | null> {
    const view = await this.item(principal, itemId);
    return this.dataSource.getRepository(AdjudicationEntity).findOneBy({ itemId: view.item.id });
  }

  async suggestionsOf(principal: Principal, itemId: string): Promise<AnnotationSuggestionEntity[]> {
    const view = await this.item(principal, itemId);
    return this.dataSource.getRepository(AnnotationSuggestionEntity).find({ where: { itemId: view.item.id }, order: { pattern: 'ASC', createdAt: 'ASC' } });
  }

  /** The items of an annotation campaign, oldest first, optionally in some states (e.g. disagreed ones for adjudicators). */
  async listItems(principal: Principal, annotationCampaignId: string, statuses: readonly string[] | null, page: PageArgs): Promise<Page<AnnotationItemEntity>> {
    requireRole(principal, Role.ANNOTATOR, 'annotationItems');
    const campaign = await this.getCampaign(principal, annotationCampaignId);
    const valid: readonly ItemStatus[] = ['pending', 'double_coded', 'agreed', 'disagreed', 'adjudicated'];
    const unknown = statuses?.find((s) => !(valid as readonly string[]).includes(s));
    if (unknown !== undefined) throw DomainException.badInput('status', `states among ${valid.join(', ')}`, unknown);
    const qb = this.dataSource.getRepository(AnnotationItemEntity).createQueryBuilder('i').where('i.annotationCampaignId = :id AND i.orgId = :orgId', { id: campaign.id, orgId: campaign.orgId });
    if (statuses?.length) qb.andWhere('i.status IN (:...statuses)', { statuses });
    return paginate(qb, page);
  }

  /** Counts of items by status. */
  async progress(campaignId: string): Promise<Record<ItemStatus, number> & { total: number }> {
    const rows: { status: ItemStatus; n: number }[] = await this.dataSource.query('SELECT status, count(*)::int AS n FROM annotation_items WHERE annotation_campaign_id = $1 GROUP BY status', [campaignId]);
    const out = { pending: 0, double_coded: 0, agreed: 0, disagreed: 0, adjudicated: 0, total: 0 };
    for (const r of rows) {
      out[r.status] = r.n;
      out.total += r.n;
    }
    return out;
  }
}
