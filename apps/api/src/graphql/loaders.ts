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
}

function byId<T extends ObjectLiteral & { id: string }>(ds: DataSource, target: EntityTarget<T>): DataLoader<string, T | null> {
  return new DataLoader(async (ids: readonly string[]) => {
    const rows = await ds.getRepository(target).findBy({ id: In([...ids]) } as never);
    const map = new Map(rows.map((row) => [row.id, row]));
    return ids.map((id) => map.get(id) ?? null);
  });
}

export function createLoaders(ds: DataSource): Loaders {
  return { user: byId(ds, UserEntity), organization: byId(ds, OrganizationEntity) };
}

export interface GraphqlContext {
  req: import('express').Request;
  res: import('express').Response;
  loaders: Loaders;
}
