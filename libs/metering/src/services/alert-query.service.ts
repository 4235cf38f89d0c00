import { DomainException, decodeCursor, pageSize, toPage, type Page, type PageArgs } from '#libs/common';
import { isUuid, requireOrgId } from '#libs/database';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';

export interface AlertView {
  id: string;
  scope: 'campaign' | 'org';
  campaignId: string | null;
  campaignName: string | null;
  period: string | null;
  threshold: number;
  spentMicros: number;
  capMicros: number;
  createdAt: Date;
  webhookStatus: 'none' | 'pending' | 'delivered' | 'failed';
  webhookAttempts: number;
  webhookLastError: string | null;
}

interface AlertRow {
  id: string;
  scope: 'campaign' | 'org';
  campaign_id: string | null;
  campaign_name: string | null;
  period: string | null;
  threshold: number;
  spent_micros: string;
  cap_micros: string;
  created_at: Date;
  webhook_status: AlertView['webhookStatus'];
  webhook_attempts: number;
  last_error: string | null;
}

/** Budget alerts of one org, newest first, keyset-paged on (created_at, id) descending. */
@Injectable()
export class AlertQueryService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async list(orgId: string, args: PageArgs & { campaignId?: string | null }): Promise<Page<AlertView>> {
    requireOrgId(orgId);
    const limit = pageSize(args.first);
    const cursor = decodeCursor(args.after);
    const params: unknown[] = [orgId];
    const where = ['a.org_id = $1'];
    if (args.campaignId != null) {
      if (!isUuid(args.campaignId)) throw DomainException.notFound('campaign', args.campaignId);
      const found = await this.dataSource.query(`SELECT 1 FROM campaigns WHERE id = $1 AND org_id = $2`, [args.campaignId, orgId]);
      if (found.length === 0) throw DomainException.notFound('campaign', args.campaignId);
      params.push(args.campaignId);
      where.push(`a.campaign_id = $${params.length}`);
    }
    const [{ n }] = await this.dataSource.query(`SELECT count(*)::int AS n FROM budget_alerts a WHERE ${where.join(' AND ')}`, params);
    if (cursor) {
      params.push(cursor.createdAt, cursor.id);
      where.push(`(a.created_at, a.id) < ($${params.length - 1}, $${params.length})`);
    }
    params.push(limit + 1);
    const rows: AlertRow[] = await this.dataSource.query(
      `SELECT a.id, a.scope, a.campaign_id, c.name AS campaign_name, a.period, a.threshold, a.spent_micros::text AS spent_micros,
              a.cap_micros::text AS cap_micros, a.created_at, a.webhook_status, a.webhook_attempts, a.last_error
         FROM budget_alerts a LEFT JOIN campaigns c ON c.id = a.campaign_id AND c.org_id = a.org_id
        WHERE ${where.join(' AND ')}
        ORDER BY a.created_at DESC, a.id DESC
        LIMIT $${params.length}`,
      params,
    );
    return toPage(
      rows.map((r) => ({
        id: r.id,
        scope: r.scope,
        campaignId: r.campaign_id,
        campaignName: r.campaign_name,
        period: r.period,
        threshold: r.threshold,
        spentMicros: Number(r.spent_micros),
        capMicros: Number(r.cap_micros),
        createdAt: r.created_at,
        webhookStatus: r.webhook_status,
        webhookAttempts: r.webhook_attempts,
        webhookLastError: r.last_error,
      })),
      limit,
      n,
    );
  }
}
