import { DomainException } from '#libs/common';
import { isUuid, requireOrgId } from '#libs/database';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';

export const USAGE_DIMENSIONS = ['campaign', 'agent', 'model', 'mode', 'day'] as const;
export type UsageDimension = (typeof USAGE_DIMENSIONS)[number];

export interface UsageQuery {
  /** Empty: one row, the org's total. */
  groupBy: readonly UsageDimension[];
  /** Calls at or after this time (inclusive). */
  from?: Date | null;
  /** Calls before this time (exclusive). */
  to?: Date | null;
  campaignId?: string | null;
}

export interface UsageTokens {
  uncachedInput: number;
  cacheRead: number;
  cacheWrite: number;
  output: number;
  /** Part of output (priced there), shown on its own. */
  reasoning: number;
}

export interface UsageRow {
  campaignId: string | null;
  campaignName: string | null;
  agent: string | null;
  model: string | null;
  mode: string | null;
  /** UTC day of the calls, YYYY-MM-DD. */
  day: string | null;
  calls: number;
  /** Executions with at least one call in the group. */
  executions: number;
  tokens: UsageTokens;
  costMicros: number;
  unpricedCalls: number;
  /**
   * Resolved executions among the group's: only where each execution falls in
   * one group (by campaign, agent, mode); null when grouped by model or day,
   * where one execution can sit in several groups.
   */
  resolved: number | null;
}

/** Past this many groups the caller is asked to narrow the query. */
export const MAX_USAGE_GROUPS = 10_000;

const DAY = `to_char(l.call_time AT TIME ZONE 'UTC', 'YYYY-MM-DD')`;
const KEY_SQL: Record<UsageDimension, { select: string[]; group: string[] }> = {
  // By name for reading, then id: two campaigns may share a name.
  campaign: { select: ['l.campaign_id AS campaign_id', 'c.name AS campaign_name'], group: ['c.name', 'l.campaign_id'] },
  agent: { select: ['l.agent_name AS agent'], group: ['l.agent_name'] },
  model: { select: ['l.model AS model'], group: ['l.model'] },
  mode: { select: ['l.mode AS mode'], group: ['l.mode'] },
  day: { select: [`${DAY} AS day`], group: [DAY] },
};
/** An execution has one campaign, agent and mode, so resolved counts add up only along these. */
const RESOLVED_SAFE = new Set<UsageDimension>(['campaign', 'agent', 'mode']);

interface SqlRow {
  campaign_id?: string;
  campaign_name?: string;
  agent?: string;
  model?: string;
  mode?: string;
  day?: string;
  calls: string;
  executions: string;
  uncached: string;
  cache_read: string;
  cache_write: string;
  output: string;
  reasoning: string;
  cost_micros: string;
  unpriced: string;
  resolved: string;
}

/**
 * Usage views over the ledger of one org: calls, tokens by disjoint kind,
 * and money summed as integer micro-dollars in SQL (converted to dollars
 * once, by the caller), grouped by any of campaign, agent, model, mode and
 * UTC day of the call. Imported executions have no ledger rows and are not
 * part of usage.
 */
@Injectable()
export class UsageService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async usage(orgId: string, query: UsageQuery): Promise<UsageRow[]> {
    requireOrgId(orgId);
    for (const d of query.groupBy) if (!USAGE_DIMENSIONS.includes(d)) throw DomainException.badInput('groupBy', `some of ${USAGE_DIMENSIONS.join(', ')}`, d);
    // In the caller's order, each dimension once.
    const dims = [...new Set(query.groupBy)];
    if (query.from && query.to && query.from.getTime() >= query.to.getTime()) {
      throw DomainException.badInput('to', `a time after from (${query.from.toISOString()})`, query.to.toISOString());
    }
    const params: unknown[] = [orgId];
    const where = ['l.org_id = $1'];
    if (query.campaignId != null) {
      // Another org's campaign answers exactly like a missing one.
      if (!isUuid(query.campaignId)) throw DomainException.notFound('campaign', query.campaignId);
      const found = await this.dataSource.query(`SELECT 1 FROM campaigns WHERE id = $1 AND org_id = $2`, [query.campaignId, orgId]);
      if (found.length === 0) throw DomainException.notFound('campaign', query.campaignId);
      params.push(query.campaignId);
      where.push(`l.campaign_id = $${params.length}`);
    }
    if (query.from) {
      params.push(query.from);
      where.push(`l.call_time >= $${params.length}`);
    }
    if (query.to) {
      params.push(query.to);
      where.push(`l.call_time < $${params.length}`);
    }
    const keys = dims.flatMap((d) => KEY_SQL[d].select);
    const group = dims.flatMap((d) => KEY_SQL[d].group);
    const withResolved = dims.every((d) => RESOLVED_SAFE.has(d));
    params.push(MAX_USAGE_GROUPS + 1);
    const rows: SqlRow[] = await this.dataSource.query(
      `SELECT ${[...keys, ''].join(', ')}
              count(*)::text AS calls,
              count(DISTINCT l.execution_id)::text AS executions,
              sum(l.uncached_input_tokens)::text AS uncached,
              sum(l.cache_read_tokens)::text AS cache_read,
              sum(l.cache_write_tokens)::text AS cache_write,
              sum(l.output_tokens)::text AS output,
              sum(l.reasoning_tokens)::text AS reasoning,
              sum(l.cost_micros)::text AS cost_micros,
              count(*) FILTER (WHERE l.unpriced)::text AS unpriced,
              ${withResolved ? 'count(DISTINCT l.execution_id) FILTER (WHERE x.resolved IS TRUE)::text' : 'NULL'} AS resolved
         FROM usage_ledger l
         ${dims.includes('campaign') ? 'JOIN campaigns c ON c.id = l.campaign_id AND c.org_id = l.org_id' : ''}
         ${withResolved ? 'JOIN executions x ON x.id = l.execution_id AND x.org_id = l.org_id' : ''}
        WHERE ${where.join(' AND ')}
        ${group.length ? `GROUP BY ${group.join(', ')} ORDER BY ${group.join(', ')}` : ''}
        LIMIT $${params.length}`,
      params,
    );
    if (rows.length > MAX_USAGE_GROUPS) {
      throw DomainException.badInput('groupBy', `at most ${MAX_USAGE_GROUPS} groups: narrow the query with from, to or campaign, or group by fewer dimensions`, dims);
    }
    // Ungrouped, an org without calls still gets its one row (of zeros): SQL aggregates give it.
    return rows.map((r) => ({
      campaignId: r.campaign_id ?? null,
      campaignName: r.campaign_name ?? null,
      agent: r.agent ?? null,
      model: r.model ?? null,
      mode: r.mode ?? null,
      day: r.day ?? null,
      calls: Number(r.calls),
      executions: Number(r.executions),
      tokens: {
        uncachedInput: Number(r.uncached ?? 0),
        cacheRead: Number(r.cache_read ?? 0),
        cacheWrite: Number(r.cache_write ?? 0),
        output: Number(r.output ?? 0),
        reasoning: Number(r.reasoning ?? 0),
      },
      costMicros: Number(r.cost_micros ?? 0),
      unpricedCalls: Number(r.unpriced),
      resolved: r.resolved == null ? null : Number(r.resolved),
    }));
  }
}
