import { useEffect, useState } from 'react';
import { useApi } from '../../api/api-context.js';

/** Threads longer than this are searched on the server (its full-text index), shorter ones in the browser. */
export const SERVER_SEARCH_THRESHOLD = 1000;
/** The most hits GET /search returns in one answer. */
export const SERVER_SEARCH_LIMIT = 100;

export interface ServerSearch {
  /** Ids of the matching turns, best first; null when the server was not asked or could not answer. */
  ids: ReadonlySet<string> | null;
  /** The answer was cut at SERVER_SEARCH_LIMIT hits. */
  capped: boolean;
  pending: boolean;
}

const idle: ServerSearch = { ids: null, capped: false, pending: false };

/**
 * Searches a context's turns with the hub's full-text index. An empty query
 * asks nothing; a failure (an older hub without /search) leaves `ids` null
 * so the caller falls back to searching in the browser.
 */
export function useServerSearch(contextId: string, query: string): ServerSearch {
  const { api } = useApi();
  const [state, setState] = useState<ServerSearch>(idle);
  useEffect(() => {
    const q = query.trim();
    if (!q) {
      setState(idle);
      return;
    }
    const abort = new AbortController();
    setState((s) => ({ ...s, pending: true }));
    api.search({ q, context: contextId, kind: 'turn', limit: SERVER_SEARCH_LIMIT }, abort.signal).then(
      (result) =>
        setState({ ids: new Set(result.hits.map((h) => h.event.id)), capped: result.hits.length >= SERVER_SEARCH_LIMIT, pending: false }),
      () => {
        if (!abort.signal.aborted) setState(idle);
      },
    );
    return () => abort.abort();
  }, [api, contextId, query]);
  return state;
}
