import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, pageSize, toPage } from './pagination.js';

describe('cursor pagination', () => {
  it('round-trips a cursor', () => {
    const row = { createdAt: new Date('2026-11-29T17:04:17.627Z'), id: 'e41d3329-ccce-4e79-a64a-dff8d819a4ae' };
    expect(decodeCursor(encodeCursor(row))).toEqual(row);
    expect(decodeCursor(null)).toBeNull();
  });
  it('refuses a foreign cursor naming the argument', () => {
    expect(() => decodeCursor('not-a-cursor')).toThrow(/^after: expected a cursor/);
  });
  it('bounds page sizes', () => {
    expect(pageSize(undefined)).toBe(20);
    expect(() => pageSize(0)).toThrow(/^first: expected an integer from 1 to 100, got 0/);
    expect(() => pageSize(101)).toThrow(/first/);
  });
  it('uses the extra row to say there is a next page', () => {
    const rows = [1, 2, 3].map((i) => ({ createdAt: new Date(i), id: String(i) }));
    expect(toPage(rows, 2, 3).pageInfo.hasNextPage).toBe(true);
    expect(toPage(rows, 3, 3).pageInfo.hasNextPage).toBe(false);
    expect(toPage([], 3, 0).pageInfo.endCursor).toBeNull();
  });
});
