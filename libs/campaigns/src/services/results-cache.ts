import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';

/** The scope of a campaign's results, raised by a trigger whenever one of its executions' results changes. */
export const campaignScope = (campaignId: string): string => `campaign:${campaignId}`;
/** The scope of a benchmark version's public results (executions of public campaigns). */
export const benchmarkVersionScope = (benchmarkVersionId: string): string => `benchmark_version:${benchmarkVersionId}`;

interface Entry {
  stamp: string;
  value: Promise<unknown>;
}

export interface ResultsCacheStats {
  hits: number;
  misses: number;
  entries: number;
}

/**
 * Results views (reports, comparisons, delegation, leaderboards) cached per
 * scope, valid while the scopes' result stamps are unchanged. The stamps are
 * read before the view is computed, so a view can only ever be newer than its
 * stamp, never older: a change committed meanwhile raises the stamp and the
 * next request recomputes. Concurrent misses of one key share one
 * computation. Least recently used entries go first past `maxEntries`.
 */
@Injectable()
export class ResultsCache {
  private readonly entries = new Map<string, Entry>();
  private hits = 0;
  private misses = 0;
  maxEntries = 256;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async get<T>(scopes: readonly string[], key: string, compute: () => Promise<T>): Promise<T> {
    const stamp = await this.stampOf(scopes);
    const cacheKey = `${[...scopes].sort().join(',')}|${key}`;
    const cached = this.entries.get(cacheKey);
    if (cached && cached.stamp === stamp) {
      this.hits++;
      // Refresh its place in the LRU order.
      this.entries.delete(cacheKey);
      this.entries.set(cacheKey, cached);
      return cached.value as Promise<T>;
    }
    this.misses++;
    const value = compute();
    const entry = { stamp, value };
    this.entries.delete(cacheKey);
    this.entries.set(cacheKey, entry);
    // A failed computation is not kept.
    value.catch(() => {
      if (this.entries.get(cacheKey) === entry) this.entries.delete(cacheKey);
    });
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    return value;
  }

  stats(): ResultsCacheStats {
    return { hits: this.hits, misses: this.misses, entries: this.entries.size };
  }

  /** The current versions of the scopes, in order ("0" for a scope never raised). */
  private async stampOf(scopes: readonly string[]): Promise<string> {
    if (scopes.length === 0) return '';
    const rows: { scope: string; version: string }[] = await this.dataSource.query('SELECT scope, version FROM result_stamps WHERE scope = ANY($1::text[])', [scopes]);
    const versions = new Map(rows.map((r) => [r.scope, r.version]));
    return [...scopes].sort().map((scope) => `${scope}=${versions.get(scope) ?? '0'}`).join(',');
  }
}
