import { decodeCursor, pageSize, toPage, type Page, type PageArgs } from '#libs/common';
import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';

/**
 * Keyset pagination over (createdAt, id), oldest first. Lists use
 * `timestamptz(3)` creation times so a cursor (millisecond ISO time) names a
 * row exactly.
 */
export async function paginate<T extends ObjectLiteral & { createdAt: Date; id: string }>(
  qb: SelectQueryBuilder<T>,
  args: PageArgs,
): Promise<Page<T>> {
  const limit = pageSize(args.first);
  const cursor = decodeCursor(args.after);
  const alias = qb.alias;
  const totalCount = await qb.clone().getCount();
  if (cursor) {
    qb.andWhere(`(${alias}.createdAt, ${alias}.id) > (:cursorAt, :cursorId)`, { cursorAt: cursor.createdAt, cursorId: cursor.id });
  }
  const rows = await qb.orderBy(`${alias}.createdAt`, 'ASC').addOrderBy(`${alias}.id`, 'ASC').take(limit + 1).getMany();
  return toPage(rows, limit, totalCount);
}
