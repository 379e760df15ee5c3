import type { Event, TurnEvent } from '@baton/core';
import { useVirtualizer } from '@tanstack/react-virtual';
import { type CSSProperties, memo, useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { ContentCut } from '../../state/timeline.js';
import { phaseHue } from '../../ui/colors.js';
import { TurnCard } from './turn-card.js';
import { estimateRowHeight, phaseLabel, type Row } from './turns.js';

export interface TurnListProps {
  rows: readonly Row[];
  byId: ReadonlyMap<string, Event>;
  cut: ReadonlyMap<string, ContentCut>;
  collapsed: ReadonlySet<string>;
  full: ReadonlySet<string>;
  /** Shown in place of the list when there are no rows. */
  empty: string | null;
  onToggleCollapsed(turn: TurnEvent): void;
  onShowFull(turn: TurnEvent, full: boolean): void;
  onCopy(turn: TurnEvent): void;
  onStatus(message: string): void;
}

/**
 * The virtualized list of phase groups and turns. Its own component, so
 * scrolling (which re-renders the list on every frame) renders only rows, not
 * the toolbar; the cards are memoized, so a frame renders just the rows that
 * scrolled into view.
 */
export const TurnList = memo(function TurnList({
  rows,
  byId,
  cut,
  collapsed,
  full,
  empty,
  onToggleCollapsed,
  onShowFull,
  onCopy,
  onStatus,
}: TurnListProps) {
  const [flash, setFlash] = useState<string | null>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  // The list's width (to 10 px), which estimates wrap text at.
  const [width, setWidth] = useState(1200);
  useLayoutEffect(() => {
    const element = scrollRef.current;
    if (!element) return;
    const observer = new ResizeObserver(() => setWidth(Math.round(element.clientWidth / 10) * 10 || 1200));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  // Read at call time, so jumpTo (a prop of every card) stays the same while rows change.
  const rowsRef = useRef(rows);
  rowsRef.current = rows;
  // Stable while the rows are: the virtualizer lays out every row again whenever getItemKey changes.
  const getItemKey = useCallback(
    (i: number) => {
      const row = rows[i];
      return row?.type === 'turn' ? row.turn.id : `group:${row?.phase ?? i}`;
    },
    [rows],
  );
  const estimateSize = useCallback((i: number) => estimateRowHeight(rows[i], width), [rows, width]);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize,
    getItemKey,
    overscan: 4,
  });
  // Rows measured at another width are another size: measure again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: width is the trigger
  useLayoutEffect(() => virtualizer.measure(), [virtualizer, width]);

  const jumpTo = useCallback(
    (id: string) => {
      const index = rowsRef.current.findIndex((r) => r.type === 'turn' && r.turn.id === id);
      if (index === -1) {
        onStatus('That turn is hidden by the current filters');
        return;
      }
      virtualizer.scrollToIndex(index, { align: 'start' });
      setFlash(id);
    },
    [virtualizer, onStatus],
  );
  useEffect(() => {
    if (!flash) return;
    const timer = setTimeout(() => setFlash(null), 1600);
    return () => clearTimeout(timer);
  }, [flash]);

  return (
    <div ref={scrollRef} className="virtual-scroll" data-testid="turn-list">
      {rows.length === 0 && empty !== null && <p className="empty">{empty}</p>}
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
                  parent={row.turn.parentId ? byId.get(row.turn.parentId) : undefined}
                  cut={cut.get(row.turn.id)}
                  collapsed={collapsed.has(row.turn.id)}
                  full={full.has(row.turn.id)}
                  onToggleCollapsed={onToggleCollapsed}
                  onShowFull={onShowFull}
                  onCopy={onCopy}
                  onJumpTo={jumpTo}
                />
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
});
