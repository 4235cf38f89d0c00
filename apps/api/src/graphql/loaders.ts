import { OrganizationEntity, UserEntity } from '#libs/identity';
import DataLoader from 'dataloader';
import { In, type DataSource, type ObjectLiteral, type EntityTarget } from 'typeorm';

/**
 * Per-request batch loaders for relations (one query per type per request,
 * not one per row). Only for rows the caller was already allowed to reach:
 * they load by id and check nothing themselves.
 */
export interface Loaders {
  user: DataLoader<string, UserEntity | null>;
  organization: DataLoader<string, OrganizationEntity | null>;
  /** Execution counts by status of campaigns the caller already reached. */
  campaignProgress: DataLoader<string, Record<string, number>>;
}

function byId<T extends ObjectLiteral & { id: string }>(ds: DataSource, target: EntityTarget<T>): DataLoader<string, T | null> {
  return new DataLoader(async (ids: readonly string[]) => {
    const rows = await ds.getRepository(target).findBy({ id: In([...ids]) } as never);
    const map = new Map(rows.map((row) => [row.id, row]));
    return ids.map((id) => map.get(id) ?? null);
  });
}

function campaignProgress(ds: DataSource): DataLoader<string, Record<string, number>> {
  return new DataLoader(async (ids: readonly string[]) => {
    const rows: { campaign_id: string; status: string; n: number; resolved: number; cost: number }[] = await ds.query(
      `SELECT campaign_id, status, count(*)::int AS n, count(*) FILTER (WHERE resolved)::int AS resolved,
              COALESCE(sum(cost_micros), 0)::float8 AS cost
         FROM executions WHERE campaign_id = ANY($1::uuid[]) GROUP BY campaign_id, status`,
      [[...ids]],
    );
    const empty = () => ({ queued: 0, dispatching: 0, running: 0, completed: 0, infra_failed: 0, cancelled: 0, total: 0, resolved: 0, costMicros: 0 });
    const byId = new Map<string, Record<string, number>>(ids.map((id) => [id, empty()]));
    for (const row of rows) {
      const p = byId.get(row.campaign_id)!;
      p[row.status] = row.n;
      p.total! += row.n;
      p.resolved! += row.resolved;
      p.costMicros! += row.cost;
    }
    return ids.map((id) => byId.get(id)!);
  });
}

export function createLoaders(ds: DataSource): Loaders {
  return { user: byId(ds, UserEntity), organization: byId(ds, OrganizationEntity), campaignProgress: campaignProgress(ds) };
}

export interface GraphqlContext {
  req: import('express').Request;
  res: import('express').Response;
  loaders: Loaders;
}
