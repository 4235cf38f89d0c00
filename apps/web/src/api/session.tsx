import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { graphql } from './graphql-client';

/** The web session: an access token kept in sessionStorage (gone when the tab closes), and who it is. */
export interface Viewer {
  kind: string;
  role: string;
  user: { id: string; email: string; name: string } | null;
  organization: { id: string; slug: string; name: string };
}

interface SessionValue {
  token: string | null;
  viewer: Viewer | null;
  /** True until the stored token has been checked. */
  checking: boolean;
  signIn(token: string): Promise<void>;
  signOut(): Promise<void>;
}

const STORAGE_KEY = 'fanout.accessToken';
const ME = 'query { me { kind role user { id email name } organization { id slug name } } }';
const SessionContext = createContext<SessionValue | null>(null);

function stored(): string | null {
  try {
    return sessionStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const [token, setToken] = useState<string | null>(stored);
  const [viewer, setViewer] = useState<Viewer | null>(null);
  const [checking, setChecking] = useState<boolean>(() => stored() !== null);

  const load = useCallback(async (candidate: string) => {
    const { me } = await graphql<{ me: Viewer }>(ME, {}, candidate);
    return me;
  }, []);

  useEffect(() => {
    if (!token) {
      setViewer(null);
      setChecking(false);
      return;
    }
    let live = true;
    load(token)
      .then((me) => live && setViewer(me))
      .catch(() => {
        // An expired or revoked token: forget it rather than show errors everywhere.
        if (!live) return;
        sessionStorage.removeItem(STORAGE_KEY);
        setToken(null);
      })
      .finally(() => live && setChecking(false));
    return () => {
      live = false;
    };
  }, [token, load]);

  const value = useMemo<SessionValue>(
    () => ({
      token,
      viewer,
      checking,
      async signIn(next) {
        const me = await load(next);
        sessionStorage.setItem(STORAGE_KEY, next);
        setViewer(me);
        setToken(next);
      },
      async signOut() {
        if (token) await graphql('mutation { logout }', {}, token).catch(() => undefined);
        sessionStorage.removeItem(STORAGE_KEY);
        setToken(null);
        setViewer(null);
      },
    }),
    [token, viewer, checking, load],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside SessionProvider');
  return value;
}
