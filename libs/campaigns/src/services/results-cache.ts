import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { AsyncLocalStorage } from 'node:async_hooks';
import type { DataSource } from 'typeorm';

/** The scope of a campaign's results, raised by a trigger whenever one of its executions' results changes. */
export const campaignScope = (campaignId: string): string => `campaign:${campaignId}`;
/** The scope of a benchmark version's public results (executions of public campaigns). */
export const benchmarkVersionScope = (benchmarkVersionId: string): string => `benchmark_version:${benchmarkVersionId}`;

/** Re-reads something a view depended on outside its stamps (a campaign's visibility, a board's version); true while it still holds. */
export type DependencyCheck = () => Promise<boolean>;

const recording = new AsyncLocalStorage<ResultDependencies>();

/**
 * What one results view read besides its cached value: the result stamps of
 * its scopes, as read, and checks to re-run. The views append to the
 * recorder of the current async context (`ResultDependencies.record`), so
 * nothing is threaded through their arguments; outside one, recording is a
 * no-op. The GraphQL response cache keeps an answer exactly as long as all of
 * this still holds.
 */
export class ResultDependencies {
  /** Scope -> version read ("0" for a scope never raised). */
  readonly stamps = new Map<string, string>();
  readonly checks: DependencyCheck[] = [];
  /** A scope was read at two versions: the answer mixes two states and is not worth keeping. */
  conflicting = false;

  /** Runs `fn` with this recorder as the current one (for everything `fn` starts, awaited or not). */
  static record<T>(deps: ResultDependencies, fn: () => T): T {
    return recording.run(deps, fn);
  }

  static current(): ResultDependencies | undefined {
    return recording.getStore();
  }

  /** Whether a results view recorded its dependencies at all (a resolver that never reached one did not). */
  get recorded(): boolean {
    return this.stamps.size > 0 || this.checks.length > 0;
  }

  addStamp(scope: string, version: string): void {
    const seen = this.stamps.get(scope);
    if (seen !== undefined && seen !== version) this.conflicting = true;
    this.stamps.set(scope, version);
  }

  addCheck(check: DependencyCheck): void {
    this.checks.push(check);
  }
}

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
    const versions = await this.versionsOf(scopes);
    const deps = ResultDependencies.current();
    if (deps) for (const [scope, version] of versions) deps.addStamp(scope, version);
    const stamp = [...versions].map(([scope, version]) => `${scope}=${version}`).join(',');
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

  /** The current versions of the scopes, sorted by scope ("0" for a scope never raised). */
  private async versionsOf(scopes: readonly string[]): Promise<Map<string, string>> {
    if (scopes.length === 0) return new Map();
    const rows: { scope: string; version: string }[] = await this.dataSource.query('SELECT scope, version FROM result_stamps WHERE scope = ANY($1::text[])', [scopes]);
    const versions = new Map(rows.map((r) => [r.scope, r.version]));
    return new Map([...scopes].sort().map((scope) => [scope, versions.get(scope) ?? '0']));
  }
}
