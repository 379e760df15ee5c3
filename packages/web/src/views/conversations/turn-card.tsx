import type { Event, TurnEvent } from '@baton/core';
import type { CSSProperties } from 'react';
import { memo, useMemo } from 'react';
import type { ContentCut } from '../../state/timeline.js';
import { phaseHue, providerHue } from '../../ui/colors.js';
import { formatCost, formatCount, formatTime } from '../../ui/format.js';
import { ContentBlocks } from './content-blocks.js';
import { phaseKey, phaseLabel, truncateBlocks, turnHeading } from './turns.js';

export interface TurnCardProps {
  turn: TurnEvent;
  parent: Event | undefined;
  /** Set when the turn was listed with its content cut to a preview: "Show full" loads the rest. */
  cut: ContentCut | undefined;
  collapsed: boolean;
  full: boolean;
  /** Callbacks take the turn, so one stable function serves every card (and memo holds while scrolling). */
  onToggleCollapsed(turn: TurnEvent): void;
  onShowFull(turn: TurnEvent, full: boolean): void;
  onCopy(turn: TurnEvent): void;
  onJumpTo(id: string): void;
}

/** One prompt or response (reference/003: speaker badge, phase pill, model badge, tokens + cost, collapsible content). */
export const TurnCard = memo(function TurnCard({
  turn,
  parent,
  cut,
  collapsed,
  full,
  onToggleCollapsed,
  onShowFull,
  onCopy,
  onJumpTo,
}: TurnCardProps) {
  const shown = useMemo(() => (collapsed ? null : truncateBlocks(turn.content)), [turn.content, collapsed]);
  // All of it: asked for, and loaded (a turn listed cut has only its preview until then).
  const whole = full && !cut;
  const totalLines = cut?.lines ?? shown?.totalLines ?? 0;
  const speaker = turn.speaker ?? turn.actor.name ?? turn.actor.id;
  const contentId = `turn-content-${turn.id}`;
  return (
    <article
      className={`turn turn-${turn.direction}${turn.error ? ' turn-error' : ''}`}
      aria-label={turnHeading(turn)}
      data-turn-id={turn.id}
    >
      <header className="turn-header">
        <span
          className="badge speaker"
          style={{ '--hue': providerHue(turn.provider) } as CSSProperties}
          title={turn.provider ?? 'unknown provider'}
        >
          {speaker}
        </span>
        <span className="pill phase" style={{ '--hue': phaseHue(turn.phase) } as CSSProperties}>
          {phaseLabel(phaseKey(turn))}
        </span>
        <span className="direction">{turn.direction}</span>
        {turn.round !== null && <span className="round">round {turn.round}</span>}
        {turn.model && <span className="badge model">{turn.model}</span>}
        <span className="spacer" />
        <time dateTime={turn.createdAt} className="muted">
          {formatTime(turn.createdAt)}
        </time>
        <button
          type="button"
          className="icon-button"
          onClick={() => onCopy(turn)}
          aria-label={`Copy turn #${turn.seq} as markdown`}
          title="Copy as markdown"
        >
          Copy as markdown
        </button>
        <button
          type="button"
          className="icon-button"
          onClick={() => onToggleCollapsed(turn)}
          aria-expanded={!collapsed}
          aria-controls={contentId}
        >
          {collapsed ? 'Expand' : 'Collapse'}
        </button>
      </header>
      <div className="turn-usage">
        <span>
          in <strong>{formatCount(turn.usage?.inputTokens)}</strong>
        </span>
        <span>
          out <strong>{formatCount(turn.usage?.outputTokens)}</strong>
        </span>
        <span>
          cost <strong>{formatCost(turn.usage?.costUsd)}</strong>
        </span>
        <span className="muted">#{turn.seq}</span>
      </div>
      {turn.parentId && (
        <p className="thread-parent">
          ↳ answers{' '}
          {parent && parent.kind === 'turn' ? (
            <button type="button" className="link-button" onClick={() => onJumpTo(parent.id)}>
              {turnHeading(parent)} (#{parent.seq})
            </button>
          ) : (
            <span className="muted">{turn.parentId}</span>
          )}
        </p>
      )}
      {turn.error && (
        <p className="turn-error-message" role="note">
          Error{turn.error.code ? ` (${turn.error.code})` : ''}: {turn.error.message}
        </p>
      )}
      {shown && (
        <div id={contentId} className="turn-content">
          <ContentBlocks blocks={whole || !shown.truncated ? turn.content : shown.blocks} />
          {(shown.truncated || cut) && (
            <button type="button" className="show-full" onClick={() => onShowFull(turn, !whole)}>
              {whole ? 'Show less' : `Show full (${totalLines.toLocaleString('en-US')} lines)`}
            </button>
          )}
        </div>
      )}
    </article>
  );
});
