import type { Context } from '@baton/core';
import { useEffect, useRef, useState } from 'react';
import { useApi } from '../api/api-context.js';
import { openLiveFeed } from '../api/live.js';
import { Link, useQueryParam } from '../router.js';
import { formatCount, formatRelative } from '../ui/format.js';
import { SearchBox } from '../ui/search-box.js';

/**
 * Every context, most recently updated first, searchable (server-side `q`),
 * with counts kept current by the live feed: an event bumps its context to
 * the top; an event of an unknown context reloads the list.
 */
export function ContextsList() {
  const { api, identity } = useApi();
  const [q, setQ] = useQueryParam('q');
  const [contexts, setContexts] = useState<Context[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [reload, setReload] = useState(0);
  const known = useRef(new Set<string>());

  // `reload` is a trigger: the live feed bumps it when a context it does not list appears.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reload re-runs the fetch on purpose
  useEffect(() => {
    const abort = new AbortController();
    api.listContexts(q, abort.signal).then(
      (page) => {
        known.current = new Set(page.contexts.map((c) => c.id));
        setContexts(page.contexts);
        setError(null);
      },
      (err: Error) => {
        if (!abort.signal.aborted) setError(err.message);
      },
    );
    return () => abort.abort();
  }, [api, q, reload]);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const close = openLiveFeed({
      identity,
      filter: {},
      onEvent: (event) => {
        if (!known.current.has(event.contextId)) {
          // New (or newly matching) context: one reload soon, however many events arrive.
          timer ??= setTimeout(() => {
            timer = undefined;
            setReload((n) => n + 1);
          }, 300);
          return;
        }
        setContexts((list) => {
          if (!list) return list;
          const at = list.findIndex((c) => c.id === event.contextId);
          const current = list[at];
          if (!current) return list;
          const updated = { ...current, eventCount: current.eventCount + 1, lastSeq: event.seq, updatedAt: event.createdAt };
          return [updated, ...list.slice(0, at), ...list.slice(at + 1)];
        });
      },
      onGap: async () => {
        setReload((n) => n + 1);
        return 0;
      },
    });
    return () => {
      close();
      if (timer) clearTimeout(timer);
    };
  }, [identity]);

  return (
    <section className="contexts" aria-label="Contexts">
      <div className="page-head">
        <h1>Contexts</h1>
        <SearchBox label="Search contexts" placeholder="Search titles and descriptions…" value={q} onChange={setQ} />
      </div>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {contexts === null && !error && <p className="muted">Loading…</p>}
      {contexts?.length === 0 && (
        <p className="empty">{q ? `No context matches “${q}”.` : 'No contexts yet. Agents create them as they work.'}</p>
      )}
      <ul className="context-list">
        {contexts?.map((c) => (
          <li key={c.id}>
            <Link to={`/contexts/${encodeURIComponent(c.id)}/overview`} className="context-card">
              <span className="context-title">{c.title || c.id}</span>
              {c.description && <span className="context-description">{c.description.slice(0, 200)}</span>}
              <span className="context-meta">
                <span data-testid="event-count">{formatCount(c.eventCount)} events</span>
                <span>updated {formatRelative(c.updatedAt)}</span>
                {c.owner && <span>by {c.owner.name ?? c.owner.id}</span>}
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
