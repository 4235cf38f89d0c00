import { useEffect, useState, type AnchorHTMLAttributes, type MouseEvent } from 'react';

/** A minimal history router: the API answers index.html for every client route. */
const listeners = new Set<() => void>();

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (options.replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  window.scrollTo(0, 0);
  listeners.forEach((l) => l());
}

export function useLocation(): { path: string; query: URLSearchParams } {
  const [, setVersion] = useState(0);
  useEffect(() => {
    const update = () => setVersion((v) => v + 1);
    listeners.add(update);
    window.addEventListener('popstate', update);
    return () => {
      listeners.delete(update);
      window.removeEventListener('popstate', update);
    };
  }, []);
  return { path: window.location.pathname, query: new URLSearchParams(window.location.search) };
}

/** Replaces some query parameters of the current URL (empty values are removed). */
export function setQuery(values: Record<string, string | null | undefined>): void {
  const query = new URLSearchParams(window.location.search);
  for (const [k, v] of Object.entries(values)) {
    if (v) query.set(k, v);
    else query.delete(k);
  }
  const search = query.toString();
  navigate(`${window.location.pathname}${search ? `?${search}` : ''}`, { replace: true });
}

export function Link({ to, onClick, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { to: string }) {
  const handle = (e: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(e);
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(to);
  };
  return <a href={to} onClick={handle} {...rest} />;
}
