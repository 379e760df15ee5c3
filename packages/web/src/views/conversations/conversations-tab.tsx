import type { Context, Event, TurnEvent } from '@baton/core';
import { useCallback, useDeferredValue, useMemo, useState } from 'react';
import { useQueryParam } from '../../router.js';
import type { Timeline } from '../../state/timeline.js';
import { useTimeline } from '../../state/use-timeline.js';
import { Chips, formatSelection, parseSelection } from '../../ui/chips.js';
import { phaseHue } from '../../ui/colors.js';
import { SearchBox } from '../../ui/search-box.js';
import { TurnList } from './turn-list.js';
import {
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

/** How many cut turns "Copy whole thread" loads at once. */
const FULL_LOADS = 4;

/** The given turns with their whole content, loading those listed cut (a few at a time). */
async function wholeTurns(timeline: Timeline, turns: readonly TurnEvent[]): Promise<TurnEvent[]> {
  const cut = timeline.getSnapshot().cut;
  const wanted = turns.filter((t) => cut.has(t.id));
  const whole = new Map<string, Event>();
  let next = 0;
  const worker = async () => {
    for (let turn = wanted[next++]; turn; turn = wanted[next++]) whole.set(turn.id, await timeline.full(turn.id));
  };
  await Promise.all(Array.from({ length: Math.min(FULL_LOADS, wanted.length) }, worker));
  return turns.map((t) => (whole.get(t.id) as TurnEvent | undefined) ?? t);
}

/**
 * The Conversations tab (reference/003): every prompt and response of the
 * context, grouped by phase in time order, filtered by phase chips and a
 * search over content and speaker, in a virtualized list so a 10,000-turn
 * thread with a 5 MB turn stays responsive. Filters live in the URL.
 *
 * Turns are loaded with their content cut to a preview (state/timeline.ts
 * PREVIEW_CHARS); "Show full" and the copy actions load a cut turn whole.
 *
 * Search runs in the browser over the loaded turns (substring of content and
 * speaker); threads over SERVER_SEARCH_THRESHOLD turns, or holding turns cut
 * to a preview, ask the hub's full-text index instead (GET /search), falling
 * back to the browser if it cannot answer.
 */
export function ConversationsTab({ context }: { context: Context }) {
  const { timeline, snapshot } = useTimeline();
  const [phasesParam, setPhasesParam] = useQueryParam('phases');
  const [query, setQuery] = useQueryParam('q');
  const deferredQuery = useDeferredValue(query);
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const [full, setFull] = useState<ReadonlySet<string>>(new Set());
  const [status, setStatus] = useState('');

  const turns = useMemo(() => snapshot.events.filter(isTurn), [snapshot.events]);
  const options = useMemo(() => phaseOptions(turns), [turns]);
  const selected = useMemo(() => parseSelection(phasesParam), [phasesParam]);
  // Turns listed as previews hold only the start of their content: the server's index searches all of it.
  const anyCut = useMemo(() => turns.some((t) => snapshot.cut.has(t.id)), [turns, snapshot.cut]);
  const onServer = turns.length > SERVER_SEARCH_THRESHOLD || anyCut;
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

  const copy = useCallback(async (text: string, what: string) => {
    try {
      await navigator.clipboard.writeText(text);
      setStatus(`Copied ${what} as markdown`);
    } catch (error) {
      setStatus(`Could not copy: ${(error as Error).message}`);
    }
  }, []);

  const toggleCollapsed = useCallback((turn: TurnEvent) => setCollapsed((s) => toggle(s, turn.id, !s.has(turn.id))), []);
  const showFull = useCallback(
    async (turn: TurnEvent, on: boolean) => {
      if (on && timeline.getSnapshot().cut.has(turn.id)) {
        setStatus(`Loading turn #${turn.seq} in full…`);
        try {
          await timeline.full(turn.id);
          setStatus('');
        } catch (error) {
          setStatus(`Could not load turn #${turn.seq}: ${(error as Error).message}`);
          return;
        }
      }
      setFull((s) => toggle(s, turn.id, on));
    },
    [timeline],
  );
  // The whole content, loaded first when the turn was listed cut; parents are read when copying, so cards need not re-render as events load.
  const copyTurn = useCallback(
    async (turn: TurnEvent) => {
      try {
        const [whole] = await wholeTurns(timeline, [turn]);
        await copy(turnToMarkdown(whole ?? turn, timeline.getSnapshot().byId), `turn #${turn.seq}`);
      } catch (error) {
        setStatus(`Could not copy: ${(error as Error).message}`);
      }
    },
    [copy, timeline],
  );
  const copyThread = useCallback(async () => {
    try {
      if (anyCut) setStatus('Loading the whole thread…');
      const whole = await wholeTurns(timeline, turns);
      await copy(threadToMarkdown(context.title, whole, timeline.getSnapshot().byId), 'the whole thread');
    } catch (error) {
      setStatus(`Could not copy: ${(error as Error).message}`);
    }
  }, [copy, timeline, turns, anyCut, context.title]);

  const empty =
    snapshot.status === 'loading'
      ? null
      : turns.length === 0
        ? 'No conversation turns in this context yet.'
        : 'No turns match the filters.';
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
          <button type="button" className="button" onClick={() => void copyThread()}>
            Copy whole thread as markdown
          </button>
        </div>
        <p className="status" role="status">
          {status}
        </p>
      </div>
      <TurnList
        rows={rows}
        byId={snapshot.byId}
        cut={snapshot.cut}
        collapsed={collapsed}
        full={full}
        empty={empty}
        onToggleCollapsed={toggleCollapsed}
        onShowFull={showFull}
        onCopy={copyTurn}
        onStatus={setStatus}
      />
    </section>
  );
}
