import { DomainException } from './domain.exception.js';

/** Keyset position of a row in a list ordered by (createdAt, id). */
export interface Cursor {
  createdAt: Date;
  id: string;
}

export interface PageArgs {
  first?: number | null;
  after?: string | null;
}

export interface Page<T> {
  nodes: T[];
  edges: { cursor: string; node: T }[];
  pageInfo: { endCursor: string | null; hasNextPage: boolean };
  totalCount: number;
}

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 20;

export function encodeCursor(row: { createdAt: Date; id: string }): string {
  return Buffer.from(`${row.createdAt.toISOString()}|${row.id}`).toString('base64url');
}

export function decodeCursor(cursor: string | null | undefined): Cursor | null {
  if (cursor == null || cursor === '') return null;
  const [iso, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const createdAt = new Date(iso ?? '');
  if (!id || Number.isNaN(createdAt.getTime())) {
    throw DomainException.badInput('after', 'a cursor returned by a previous page (pageInfo.endCursor)', cursor);
  }
  return { createdAt, id };
}

export function pageSize(first: number | null | undefined): number {
  if (first == null) return DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(first) || first < 1 || first > MAX_PAGE_SIZE) {
    throw DomainException.badInput('first', `an integer from 1 to ${MAX_PAGE_SIZE}`, first);
  }
  return first;
}

/** Builds a page from `limit + 1` fetched rows (the extra row says there is more). */
export function toPage<T extends { createdAt: Date; id: string }>(rows: T[], limit: number, totalCount: number): Page<T> {
  const nodes = rows.slice(0, limit);
  const edges = nodes.map((node) => ({ cursor: encodeCursor(node), node }));
  return {
    nodes,
    edges,
    pageInfo: { endCursor: edges.at(-1)?.cursor ?? null, hasNextPage: rows.length > limit },
    totalCount,
  };
}
