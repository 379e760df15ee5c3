import type { Context, TurnEvent } from '@baton/core';
import { useVirtualizer } from '@tanstack/react-virtual';
import { type CSSProperties, useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { useQueryParam } from '../../router.js';
import { useTimeline } from '../../state/use-timeline.js';
import { Chips, formatSelection, parseSelection } from '../../ui/chips.js';
import { phaseHue } from '../../ui/colors.js';
import { SearchBox } from '../../ui/search-box.js';
import { TurnCard } from './turn-card.js';
import {
  estimateRowHeight,
  groupRows,
  isTurn,
  matchesSearch,
  matchesSpeaker,
  phaseKey,
  phaseLabel,
  phaseOptions,
  threadToMarkdown,
  turnToMarkdown,
} from './turns.js';
import { SERVER_SEARCH_LIMIT, SERVER_SEARCH_THRESHOLD, useServerSearch } from './use-server-search.js';

function toggle(set: ReadonlySet<string>, id: string, on: boolean): ReadonlySet<string> {
  const next = new Set(set);
  if (on) next.add(id);
  else next.delete(id);
  return next;
}

/**
 * The Conversations tab (reference/003): every prompt and response of the
 * context, grouped by phase in time order, filtered by phase chips and a
 * search over content and speaker, in a virtualized list so a 10,000-turn
 * thread with a 5 MB turn stays responsive. Filters live in the URL.
 *
 * Search runs in the browser over the loaded turns (substring of content and
 * speaker); threads over SERVER_SEARCH_THRESHOLD turns ask the hub's
 * full-text index instead (GET /search), falling back to the browser if it
 * cannot answer.
 */
export function ConversationsTab({ context }: { context: Context }) {
  const { snapshot } = useTimeline();
  const [phasesParam, setPhasesParam] = useQueryParam('phases');
  const [query, setQuery] = useQueryParam('q');
  const deferredQuery = useDeferredValue(query);
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const [full, setFull] = useState<ReadonlySet<string>>(new Set());
  const [status, setStatus] = useState('');
  const [flash, setFlash] = useState<string | null>(null);

  const turns = useMemo(() => snapshot.events.filter(isTurn), [snapshot.events]);
  const options = useMemo(() => phaseOptions(turns), [turns]);
  const selected = useMemo(() => parseSelection(phasesParam), [phasesParam]);
  const onServer = turns.length > SERVER_SEARCH_THRESHOLD;
  const server = useServerSearch(context.id, onServer ? deferredQuery : '');
  const visible = useMemo(() => {
    const ids = server.ids;
    // Large threads: the server's full-text hits, plus speakers matched here (the index holds content).
    const matches = ids
      ? (t: TurnEvent) => ids.has(t.id) || matchesSpeaker(t, deferredQuery)
      : (t: TurnEvent) => matchesSearch(t, deferredQuery);
    return turns.filter((t) => (selected === null || selected.has(phaseKey(t))) && matches(t));
  }, [turns, selected, deferredQuery, server.ids]);
  const rows = useMemo(() => groupRows(visible), [visible]);

  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (i) => estimateRowHeight(rows[i]),
    getItemKey: (i) => {
      const row = rows[i];
      return row?.type === 'turn' ? row.turn.id : `group:${row?.phase ?? i}`;
    },
    overscan: 4,
  });

  const copy = useCallback(async (text: string, what: string) => {
    try {
      await navigator.clipboard.writeText(text);
      setStatus(`Copied ${what} as markdown`);
    } catch (error) {
      setStatus(`Could not copy: ${(error as Error).message}`);
    }
  }, []);

  const jumpTo = useCallback(
    (id: string) => {
      const index = rows.findIndex((r) => r.type === 'turn' && r.turn.id === id);
      if (index === -1) {
        setStatus('That turn is hidden by the current filters');
        return;
      }
      virtualizer.scrollToIndex(index, { align: 'start' });
      setFlash(id);
    },
    [rows, virtualizer],
  );
  useEffect(() => {
    if (!flash) return;
    const timer = setTimeout(() => setFlash(null), 1600);
    return () => clearTimeout(timer);
  }, [flash]);

  const toggleCollapsed = useCallback((turn: TurnEvent) => setCollapsed((s) => toggle(s, turn.id, !s.has(turn.id))), []);
  const showFull = useCallback((turn: TurnEvent, on: boolean) => setFull((s) => toggle(s, turn.id, on)), []);
  const byId = snapshot.byId;
  const copyTurn = useCallback((turn: TurnEvent) => copy(turnToMarkdown(turn, byId), `turn #${turn.seq}`), [copy, byId]);

  return (
    <section className="conversations" aria-label="Conversations">
      <div className="toolbar">
        <Chips
          label="Phases"
          options={options.map((o) => ({ value: o.phase, label: phaseLabel(o.phase), count: o.count, hue: phaseHue(o.phase) }))}
          selected={selected}
          onChange={(next) => setPhasesParam(formatSelection(next))}
        />
        <div className="toolbar-row">
          <SearchBox label="Search turns" placeholder="Search content and speaker…" value={query} onChange={setQuery} />
          <span className="muted" aria-live="polite">
            {visible.length.toLocaleString('en-US')} of {turns.length.toLocaleString('en-US')} turns
            {snapshot.status === 'loading' ? ' (loading…)' : ''}
            {server.ids && query ? ` · searched on the server${server.capped ? ` (best ${SERVER_SEARCH_LIMIT} matches)` : ''}` : ''}
            {server.pending ? ' · searching…' : ''}
          </span>
          <span className="spacer" />
          <button
            type="button"
            className="button"
            onClick={() => copy(threadToMarkdown(context.title, turns, snapshot.byId), 'the whole thread')}
          >
            Copy whole thread as markdown
          </button>
        </div>
        <p className="status" role="status">
          {status}
        </p>
      </div>
      <div ref={scrollRef} className="virtual-scroll" data-testid="turn-list">
        {rows.length === 0 && snapshot.status !== 'loading' && (
          <p className="empty">{turns.length === 0 ? 'No conversation turns in this context yet.' : 'No turns match the filters.'}</p>
        )}
        <div className="virtual-inner" style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((item) => {
            const row = rows[item.index];
            if (!row) return null;
            return (
              <div
                key={item.key}
                ref={virtualizer.measureElement}
                data-index={item.index}
                className={`virtual-row${row.type === 'turn' && row.turn.id === flash ? ' flash' : ''}`}
                style={{ transform: `translateY(${item.start}px)` }}
              >
                {row.type === 'group' ? (
                  <h3 className="phase-group" style={{ '--hue': phaseHue(row.phase === '(none)' ? null : row.phase) } as CSSProperties}>
                    {phaseLabel(row.phase)}{' '}
                    <span className="muted">
                      {row.count.toLocaleString('en-US')} {row.count === 1 ? 'turn' : 'turns'}
                    </span>
                  </h3>
                ) : (
                  <TurnCard
                    turn={row.turn}
                    parent={row.turn.parentId ? snapshot.byId.get(row.turn.parentId) : undefined}
                    collapsed={collapsed.has(row.turn.id)}
                    full={full.has(row.turn.id)}
                    onToggleCollapsed={toggleCollapsed}
                    onShowFull={showFull}
                    onCopy={copyTurn}
                    onJumpTo={jumpTo}
                  />
                )}
              </div>
            );
          })}
        </div>
      </div>
    </section>
  );
}
