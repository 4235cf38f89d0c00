import { useCallback, useEffect, useRef, useState } from 'react';
import { GraphqlError, graphql } from './graphql-client';
import { useSession } from './session';

export interface QueryState<T> {
  data: T | null;
  error: GraphqlError | null;
  loading: boolean;
  refetch(): void;
}

/**
 * Runs a query with the session's token; refetches when the variables change
 * and, while `pollMs` is set, every `pollMs` (keeping the last data on screen).
 */
export function useGraphql<T>(query: string, variables: Record<string, unknown>, options: { skip?: boolean; pollMs?: number | null } = {}): QueryState<T> {
  const { token, checking } = useSession();
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<GraphqlError | null>(null);
  const [loading, setLoading] = useState(true);
  const [tick, setTick] = useState(0);
  const key = JSON.stringify(variables);
  const lastKey = useRef<string | null>(null);
  const skip = options.skip || checking;

  useEffect(() => {
    if (skip) return;
    let live = true;
    if (lastKey.current !== key) {
      // New variables: do not show the previous answer as if it were this one.
      lastKey.current = key;
      setData(null);
      setLoading(true);
    }
    graphql<T>(query, JSON.parse(key) as Record<string, unknown>, token)
      .then((d) => {
        if (!live) return;
        setData(d);
        setError(null);
      })
      .catch((e: unknown) => {
        if (!live) return;
        setError(e instanceof GraphqlError ? e : new GraphqlError(String(e), undefined, undefined));
      })
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [query, key, token, skip, tick]);

  const pollMs = options.pollMs;
  useEffect(() => {
    if (!pollMs || skip) return;
    const timer = setInterval(() => setTick((t) => t + 1), pollMs);
    return () => clearInterval(timer);
  }, [pollMs, skip]);

  const refetch = useCallback(() => setTick((t) => t + 1), []);
  return { data, error, loading: loading || skip, refetch };
}
