import { HeaderMap, type ApolloServerPlugin, type GraphQLRequestListener } from '@apollo/server';
import { ResultDependencies, type DependencyCheck } from '#libs/campaigns';
import { Kind, print, type DocumentNode, type FormattedExecutionResult, type GraphQLFieldResolver, type OperationDefinitionNode, type SelectionSetNode } from 'graphql';
import { createHash } from 'node:crypto';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { DataSource } from 'typeorm';
import type { GraphqlContext } from './loaders.js';

/** Root fields whose answers are results views: what ResultsViewService serves, and nothing else. */
const RESULTS_VIEW_FIELDS: ReadonlySet<string> = new Set(['leaderboard', 'comparison', 'agentComparison', 'delegation', 'campaignReport']);

export interface ResponseCacheOptions {
  maxEntries?: number;
  /** Budget of the stored answers, measured as their JSON length. */
  maxBytes?: number;
}

interface Entry {
  data: Record<string, unknown>;
  /** Its length: what the byte budget counts. */
  bytes: number;
  stamps: Map<string, string>;
  checks: DependencyCheck[];
}

/** The dependencies of one execution of an eligible operation, one recorder per root field resolved. */
interface Recording {
  fields: ResultDependencies[];
}

const WRAPPED = Symbol('fanout.responseCache.wrapped');

export interface ResponseCache extends ApolloServerPlugin<GraphqlContext> {
  /**
   * Apollo's `stringifyResult`: a stored answer's JSON is written once, when
   * it is stored, and reused for every hit; anything else is serialised as
   * Apollo's default does (JSON plus a newline).
   */
  stringifyResult(value: FormattedExecutionResult): string;
}

/**
 * Whole-response cache for the results views. A view is already cached
 * (ResultsCache), but building and serialising a big answer (a comparison is
 * ~100 KB) in graphql-js costs more than the view itself. An identical
 * anonymous query whose root fields are all results views is answered with
 * the stored response while everything it read still holds: the result
 * stamps of its scopes (one query) and the checks the views recorded
 * (visibility, the board's version). So it is exactly as fresh as the view
 * cache, which checks the same on every request.
 *
 * Only anonymous callers are served: who an authenticated caller is becomes
 * known only when CredentialGuard runs inside each resolver, after this hook;
 * answering them here would need a second credential check outside the guard
 * and its failed-attempt limiter. An anonymous request to a @Public view goes
 * through the guard without any check, so skipping it changes nothing.
 *
 * A stored `data` object is served as is on every hit: nothing may mutate a
 * response after it is built (nothing in this pipeline does).
 */
export function responseCachePlugin(dataSource: DataSource, registry: Registry, options: ResponseCacheOptions = {}): ResponseCache {
  const maxEntries = options.maxEntries ?? 500;
  const maxBytes = options.maxBytes ?? 32 * 1024 * 1024;
  const entries = new Map<string, Entry>();
  const recordings = new WeakMap<object, Recording>();
  /** The serialised response of each stored answer's `data` (the same object is served on every hit). */
  const serialised = new WeakMap<object, string>();
  const documentHashes = new WeakMap<DocumentNode, string>();
  let bytes = 0;

  // hit: served from a stored answer; miss: none stored; stale: one stored, but something it read has changed.
  const lookups = metric(registry, 'fanout_graphql_response_cache_lookups_total', () =>
    new Counter({ name: 'fanout_graphql_response_cache_lookups_total', help: 'Anonymous results-view queries by response cache outcome (hit, miss, stale).', labelNames: ['outcome'] as const, registers: [registry] }),
  );
  const stored = metric(registry, 'fanout_graphql_response_cache_bytes', () =>
    new Gauge({ name: 'fanout_graphql_response_cache_bytes', help: 'JSON size of the results-view responses held.', registers: [registry] }),
  );

  const remove = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    bytes -= entry.bytes;
    stored.set(bytes);
  };
  const store = (key: string, entry: Entry) => {
    remove(key);
    if (entry.bytes > maxBytes) return;
    entries.set(key, entry);
    bytes += entry.bytes;
    // Least recently used first (Map order: a hit re-inserts its entry).
    while (entries.size > maxEntries || bytes > maxBytes) remove(entries.keys().next().value!);
    stored.set(bytes);
  };

  /**
   * Whether everything the stored answer read is unchanged: one query for all
   * its stamps, its checks beside it. Read after the request arrived, as the
   * view cache reads its stamps. A failed read is a miss: the operation then
   * runs and meets the failure itself.
   */
  const stillValid = async (entry: Entry): Promise<boolean> => {
    const scopes = [...entry.stamps.keys()];
    try {
      const [rows, ...checks] = await Promise.all([
        scopes.length ? (dataSource.query('SELECT scope, version FROM result_stamps WHERE scope = ANY($1::text[])', [scopes]) as Promise<{ scope: string; version: string }[]>) : [],
        ...entry.checks.map((check) => check()),
      ]);
      const current = new Map(rows.map((r) => [r.scope, String(r.version)]));
      return checks.every(Boolean) && scopes.every((scope) => (current.get(scope) ?? '0') === entry.stamps.get(scope));
    } catch {
      return false;
    }
  };

  const documentHash = (document: DocumentNode) => {
    let hash = documentHashes.get(document);
    if (!hash) documentHashes.set(document, (hash = sha256(print(document))));
    return hash;
  };

  return {
    stringifyResult(value) {
      const json = value.data && !value.errors && !value.extensions ? serialised.get(value.data) : undefined;
      return json ?? `${JSON.stringify(value)}\n`;
    },

    async serverWillStart({ schema }) {
      // Each root resolver of a view runs with a recorder of its own as the current one, so the views append their
      // dependencies without any argument threaded through (Apollo's own willResolveField wraps resolvers the same way).
      const fields = schema.getQueryType()?.getFields() ?? {};
      for (const name of RESULTS_VIEW_FIELDS) {
        const field = fields[name] as (typeof fields)[string] & { [WRAPPED]?: true };
        if (!field?.resolve || field[WRAPPED]) continue;
        const resolve: GraphQLFieldResolver<unknown, object> = field.resolve;
        field.resolve = (source, args, contextValue: object, info) => {
          const recording = recordings.get(contextValue);
          if (!recording) return resolve(source, args, contextValue, info);
          const deps = new ResultDependencies();
          recording.fields.push(deps);
          return ResultDependencies.record(deps, () => resolve(source, args, contextValue, info));
        };
        field[WRAPPED] = true;
      }
    },

    async requestDidStart(): Promise<GraphQLRequestListener<GraphqlContext>> {
      let key: string | null = null;
      let served = false;
      return {
        async responseForOperation({ operation, document, request, contextValue }) {
          // Anonymous only, as CredentialGuard decides it: no Authorization header at all.
          if (operation.operation !== 'query' || !contextValue.req || contextValue.req.headers.authorization || !onlyViews(operation, document)) return null;
          key = sha256(JSON.stringify([documentHash(document), request.operationName ?? null, request.variables ?? {}]));
          const entry = entries.get(key);
          if (!entry || !(await stillValid(entry))) {
            if (entry && entries.get(key) === entry) remove(key);
            lookups.inc({ outcome: entry ? 'stale' : 'miss' });
            recordings.set(contextValue, { fields: [] });
            return null;
          }
          lookups.inc({ outcome: 'hit' });
          // Most recently used last; unless it was replaced or evicted while being checked.
          if (entries.get(key) === entry) {
            entries.delete(key);
            entries.set(key, entry);
          }
          served = true;
          return { http: { status: undefined, headers: new HeaderMap() }, body: { kind: 'single', singleResult: { data: entry.data } } };
        },

        async willSendResponse({ response, contextValue }) {
          if (!key || served) return;
          const recording = recordings.get(contextValue);
          recordings.delete(contextValue);
          const body = response.body;
          if (!recording || body.kind !== 'single' || body.singleResult.errors?.length || body.singleResult.extensions || !body.singleResult.data) return;
          // Only when every root field that ran recorded what it read: anything else could go stale unnoticed.
          if (recording.fields.length === 0 || recording.fields.some((f) => !f.recorded || f.conflicting)) return;
          const stamps = new Map<string, string>();
          for (const field of recording.fields) {
            for (const [scope, version] of field.stamps) {
              if ((stamps.get(scope) ?? version) !== version) return;
              stamps.set(scope, version);
            }
          }
          const data = body.singleResult.data;
          // Exactly what Apollo would write for { data } (and it does, for this response too: stringifyResult).
          const json = `${JSON.stringify({ data })}\n`;
          serialised.set(data, json);
          store(key, { data, bytes: json.length, stamps, checks: recording.fields.flatMap((f) => f.checks) });
        },
      };
    },
  };
}

/** Whether the operation's root fields (through fragments) are results views, at least one; `__typename` reads nothing. */
function onlyViews(operation: OperationDefinitionNode, document: DocumentNode): boolean {
  const fragments = new Map(document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d.selectionSet] as const] : [])));
  let views = 0;
  const check = (set: SelectionSetNode, seen: Set<string>): boolean =>
    set.selections.every((s) => {
      if (s.kind === Kind.FIELD) {
        if (RESULTS_VIEW_FIELDS.has(s.name.value)) views++;
        return s.name.value === '__typename' || RESULTS_VIEW_FIELDS.has(s.name.value);
      }
      if (s.kind === Kind.INLINE_FRAGMENT) return check(s.selectionSet, seen);
      const fragment = fragments.get(s.name.value);
      if (!fragment || seen.has(s.name.value)) return false;
      return check(fragment, new Set(seen).add(s.name.value));
    });
  return check(operation.selectionSet, new Set()) && views > 0;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The registered metric of that name, or a new one (a registry keeps one metric per name). */
function metric<T>(registry: Registry, name: string, create: () => T): T {
  return (registry.getSingleMetric(name) as T | undefined) ?? create();
}
