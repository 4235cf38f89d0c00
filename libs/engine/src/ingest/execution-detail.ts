import { CampaignEntity, ExecutionEntity, type AgentSpanRow } from '#libs/campaigns';
import { DomainException, pageSize, type Page, type PageArgs } from '#libs/common';
import { isoToEpochMs, TRAJECTORY_EVENT_TYPES } from '#libs/contracts';
import { isUuid, requireOrgId } from '#libs/database';
import { delegationMetrics, type AgentSpan, type DelegationMetrics } from '#libs/metrics';
import type { DataSource } from 'typeorm';

/**
 * Reads behind the execution detail view: one execution the caller may see,
 * its agent spans as a tree, their delegation metrics (libs/metrics), and
 * its trajectory events paged by arrival order.
 */

/**
 * The execution when its campaign is the caller's org's or public (anonymous
 * callers: public only), the rule of CampaignService.getVisible. Anything
 * else, another tenant's private execution included, is NOT_FOUND with the
 * words of a missing id.
 */
export async function findVisibleExecution(dataSource: DataSource, principal: { orgId: string } | null, id: string): Promise<ExecutionEntity> {
  const execution = isUuid(id)
    ? await dataSource
        .getRepository(ExecutionEntity)
        .createQueryBuilder('e')
        .innerJoin(CampaignEntity, 'c', 'c.id = e.campaignId AND c.orgId = e.orgId')
        .where('e.id = :id', { id })
        // An anonymous caller's org is NULL, which equals nothing: public campaigns only.
        .andWhere(`(c.visibility = 'public' OR c.orgId = :orgId)`, { orgId: principal?.orgId ?? null })
        .getOne()
    : null;
  if (!execution) throw DomainException.notFound('execution', id);
  return execution;
}

/** Epoch-millisecond spans as libs/metrics reads them (sub-millisecond digits kept, as for records). */
export function metricsSpans(agents: readonly AgentSpanRow[]): AgentSpan[] {
  return agents.map((a) => ({ id: a.id, parentId: a.parentId, start: isoToEpochMs(a.start), end: isoToEpochMs(a.end) }));
}

/** libs/metrics' delegation figures of the execution's spans; null until it has spans (no result yet). */
export function executionDelegation(execution: Pick<ExecutionEntity, 'agents'>): DelegationMetrics | null {
  return execution.agents ? delegationMetrics(metricsSpans(execution.agents)) : null;
}

export interface AgentTreeNode extends AgentSpan {
  /** 0 for the main agent (and for a span whose parent is not among the spans). */
  depth: number;
  /** Milliseconds from the earliest start over all spans (t0 of metrics.md). */
  offset: number;
}

/**
 * The spans as a flat tree in depth-first pre-order: each span, then its
 * sub-agents' spans by start time (then id), one level deeper. Rounds of one
 * context (several spans with the same id) are siblings; their sub-agents
 * follow the first round only. A span whose parent is not in the list is a
 * root; spans caught in a parent cycle (bad data) close the list as roots, so
 * every span appears exactly once.
 */
export function agentTree(agents: readonly AgentSpanRow[]): AgentTreeNode[] {
  const spans = metricsSpans(agents);
  const byStart = (a: AgentSpan, b: AgentSpan) => a.start - b.start || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  const ids = new Set(spans.map((s) => s.id));
  const children = new Map<string, AgentSpan[]>();
  const roots: AgentSpan[] = [];
  for (const span of spans) {
    if (span.parentId === null || !ids.has(span.parentId)) roots.push(span);
    else (children.get(span.parentId) ?? children.set(span.parentId, []).get(span.parentId)!).push(span);
  }
  for (const list of children.values()) list.sort(byStart);
  roots.sort(byStart);
  const t0 = spans.reduce((min, s) => Math.min(min, s.start), Infinity);
  const out: AgentTreeNode[] = [];
  const emitted = new Set<AgentSpan>();
  const expanded = new Set<string>();
  const walk = (root: AgentSpan) => {
    // Iterative: a chain of thousands of nested sub-agents must not overflow the stack.
    const stack: { span: AgentSpan; depth: number }[] = [{ span: root, depth: 0 }];
    while (stack.length) {
      const { span, depth } = stack.pop()!;
      if (emitted.has(span)) continue;
      emitted.add(span);
      out.push({ ...span, depth, offset: span.start - t0 });
      if (expanded.has(span.id)) continue;
      expanded.add(span.id);
      const kids = children.get(span.id) ?? [];
      for (let i = kids.length - 1; i >= 0; i--) stack.push({ span: kids[i]!, depth: depth + 1 });
    }
  };
  for (const root of roots) walk(root);
  for (const span of [...spans].sort(byStart)) if (!emitted.has(span)) walk(span);
  return out;
}

export interface TrajectoryEventRow {
  /** Arrival order within the execution (bigint, as a decimal string); the page cursor. */
  seq: string;
  executionId: string;
  orgId: string;
  /** The attempt that reported it: a retried execution's attempts each have their own events. */
  attempt: number;
  eventId: string;
  type: string;
  agentId: string;
  time: Date;
  /** The event's small fields; large text is in trajectory_payloads (`outputBytes` / `textBytes` say how big). */
  data: Record<string, unknown>;
}

export interface EventFilter {
  /** The attempt whose events to list (default: the execution's current attempt). */
  attempt?: number | null;
  agentId?: string | null;
  /** Event types (agent.start, model.call, ...); any when empty. */
  kinds?: string[] | null;
}

const MAX_SEQ = 9223372036854775807n;

function seqCursor(after: string | null | undefined): string | null {
  if (after == null || after === '') return null;
  if (!/^\d{1,19}$/.test(after) || BigInt(after) > MAX_SEQ) {
    throw DomainException.badInput('after', 'a cursor returned by a previous page (pageInfo.endCursor)', after);
  }
  return after;
}

/**
 * One page of an execution's trajectory events in arrival order: keyset on
 * `seq` (the cursor is the last event's seq), optionally one agent's events
 * and some event types. The execution must already be one the caller may see.
 */
export async function executionEvents(
  dataSource: DataSource,
  execution: Pick<ExecutionEntity, 'id' | 'orgId' | 'attempt'>,
  page: PageArgs,
  filter: EventFilter = {},
): Promise<Page<TrajectoryEventRow>> {
  const limit = pageSize(page.first);
  const after = seqCursor(page.after);
  const kinds = filter.kinds?.length ? filter.kinds : null;
  const unknown = kinds?.find((k) => !(TRAJECTORY_EVENT_TYPES as readonly string[]).includes(k));
  if (unknown !== undefined) throw DomainException.badInput('kinds', `event types among ${TRAJECTORY_EVENT_TYPES.join(', ')}`, unknown);
  const attempt = filter.attempt ?? Math.max(1, execution.attempt);
  if (!Number.isInteger(attempt) || attempt < 1) throw DomainException.badInput('attempt', 'an attempt number from 1', attempt);
  const where = `execution_id = $1 AND org_id = $2 AND ($3::text IS NULL OR agent_id = $3) AND ($4::text[] IS NULL OR type = ANY($4::text[])) AND attempt = $7`;
  const params = [execution.id, requireOrgId(execution.orgId), filter.agentId ?? null, kinds];
  const [{ n }] = await dataSource.query(`SELECT count(*)::int AS n FROM trajectory_events WHERE ${where.replace('$7', '$5')}`, [...params, attempt]);
  const rows: { seq: string; event_id: string; type: string; agent_id: string; time: Date; data: Record<string, unknown> }[] = await dataSource.query(
    // Ordered by the table's bigint column: the output column `seq` is text, and ORDER BY seq would sort "10" before "2".
    `SELECT t.seq::text AS seq, t.event_id, t.type, t.agent_id, t.time, t.data FROM trajectory_events t
      WHERE ${where} AND ($5::bigint IS NULL OR t.seq > $5::bigint) ORDER BY t.seq LIMIT $6`,
    [...params, after, limit + 1, attempt],
  );
  const nodes = rows.slice(0, limit).map((r) => ({
    seq: r.seq,
    executionId: execution.id,
    orgId: execution.orgId,
    attempt,
    eventId: r.event_id,
    type: r.type,
    agentId: r.agent_id,
    time: r.time,
    data: r.data,
  }));
  const edges = nodes.map((node) => ({ cursor: node.seq, node }));
  return { nodes, edges, pageInfo: { endCursor: edges.at(-1)?.cursor ?? null, hasNextPage: rows.length > limit }, totalCount: n };
}

/**
 * The large text of events (tool output, message text), batched: one query
 * for many events of executions the caller already reached. Null where an
 * event has none.
 */
export async function eventPayloads(
  dataSource: DataSource,
  keys: readonly Pick<TrajectoryEventRow, 'orgId' | 'executionId' | 'attempt' | 'eventId'>[],
): Promise<(string | null)[]> {
  const rows: { org_id: string; execution_id: string; attempt: number; event_id: string; body: string }[] = await dataSource.query(
    `SELECT p.org_id, p.execution_id, p.attempt, p.event_id, p.body
       FROM trajectory_payloads p
       JOIN unnest($1::uuid[], $2::uuid[], $3::text[], $4::int[]) AS k(org_id, execution_id, event_id, attempt)
         ON p.org_id = k.org_id AND p.execution_id = k.execution_id AND p.event_id = k.event_id AND p.attempt = k.attempt`,
    [keys.map((k) => requireOrgId(k.orgId)), keys.map((k) => k.executionId), keys.map((k) => k.eventId), keys.map((k) => k.attempt)],
  );
  const key = (k: { orgId: string; executionId: string; attempt: number; eventId: string }) => `${k.orgId}\u0000${k.executionId}\u0000${k.attempt}\u0000${k.eventId}`;
  const bodies = new Map(rows.map((r) => [key({ orgId: r.org_id, executionId: r.execution_id, attempt: r.attempt, eventId: r.event_id }), r.body]));
  return keys.map((k) => bodies.get(key(k)) ?? null);
}
