import { type AnchorHTMLAttributes, type MouseEvent, useCallback, useSyncExternalStore } from 'react';

/**
 * A small History API router: every view and filter lives in the URL
 * (path + query), so a reload or a shared link restores it. The server
 * answers every non-API path with index.html (packages/server/src/http/static.ts).
 */
const listeners = new Set<() => void>();

function notify(): void {
  for (const listener of listeners) listener();
}

window.addEventListener('popstate', notify);

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const href = () => location.pathname + location.search;

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (to === href()) return;
  if (options.replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  notify();
}

export interface Location {
  path: string;
  query: URLSearchParams;
}

export function useLocation(): Location {
  const current = useSyncExternalStore(subscribe, href);
  const url = new URL(current, 'http://x');
  return { path: url.pathname, query: url.searchParams };
}

/** Reads one query parameter and returns a setter that replaces the URL (no history entry per keystroke). */
export function useQueryParam(name: string): [string, (value: string) => void] {
  const { query } = useLocation();
  const value = query.get(name) ?? '';
  const set = useCallback(
    (next: string) => {
      const params = new URLSearchParams(location.search);
      if (next) params.set(name, next);
      else params.delete(name);
      const search = params.toString();
      navigate(`${location.pathname}${search ? `?${search}` : ''}`, { replace: true });
    },
    [name],
  );
  return [value, set];
}

export function Link({ to, onClick, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { to: string }) {
  const handle = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(to);
  };
  return <a href={to} onClick={handle} {...rest} />;
}
