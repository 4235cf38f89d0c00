import type { ReactNode } from 'react';
import type { GraphqlError } from '../api/graphql-client';
import { Link } from '../router';

export function Loading({ what = 'Loading' }: { what?: string }) {
  return (
    <p className="state loading" role="status" aria-live="polite">
      {what}…
    </p>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="state empty">{children}</p>;
}

export function NotFound({ what }: { what: string }) {
  return (
    <section className="state not-found" aria-labelledby="not-found-title">
      <h1 id="not-found-title">Not found</h1>
      <p>
        This {what} does not exist, or it is private to another organization. <Link to="/">Back to the leaderboard</Link>
      </p>
    </section>
  );
}

export function ErrorState({ error, what }: { error: GraphqlError; what: string }) {
  if (error.notFound) return <NotFound what={what} />;
  if (error.code === 'UNAUTHENTICATED') {
    return (
      <p className="state error" role="alert">
        Sign in to see this {what}. <Link to={`/login?next=${encodeURIComponent(location.pathname + location.search)}`}>Sign in</Link>
      </p>
    );
  }
  return (
    <p className="state error" role="alert">
      Could not load this {what}: {error.message}
    </p>
  );
}

/** Renders loading / error / content for one query's state. */
export function Async<T>({ state, what, children }: { state: { data: T | null; error: GraphqlError | null; loading: boolean }; what: string; children: (data: T) => ReactNode }) {
  if (state.data) return <>{children(state.data)}</>;
  if (state.error) return <ErrorState error={state.error} what={what} />;
  return <Loading what={`Loading ${what}`} />;
}
