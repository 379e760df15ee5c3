import type { Event, NoteEvent, Urgency } from '@baton/core';
import { type CSSProperties, useEffect, useMemo, useState } from 'react';
import { useApi } from '../api/api-context.js';
import { useQueryParam } from '../router.js';
import { useTimeline } from '../state/use-timeline.js';
import { Chips, formatSelection, parseSelection } from '../ui/chips.js';
import { hueOf } from '../ui/colors.js';
import { actorLabel, formatTime, titleCase } from '../ui/format.js';
import { useAction } from '../ui/use-action.js';
import { NOTE_SCOPES, URGENCIES } from '../ui/vocabulary.js';
import { ContentBlocks } from './conversations/content-blocks.js';
import { ShowFull } from './show-full.js';

function isNote(event: Event): event is NoteEvent {
  return event.kind === 'note';
}

/** Most pressing first. */
const ORDER: readonly Urgency[] = [...URGENCIES].reverse();

/** Ticks every 30 s so notes disappear when they expire, without a reload. */
function useNow(): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/** Notes grouped by urgency, filterable by scope; expired notes are hidden (DESIGN §4), consumed ones listed apart. */
export function NotesTab() {
  const { snapshot } = useTimeline();
  const [scopesParam, setScopesParam] = useQueryParam('scopes');
  const selected = useMemo(() => parseSelection(scopesParam), [scopesParam]);
  const now = useNow();
  const notes = useMemo(
    () =>
      snapshot.events
        .filter(isNote)
        .filter((n) => n.expiresAt === null || new Date(n.expiresAt).getTime() > now)
        .filter((n) => selected === null || selected.has(n.scope))
        .reverse(),
    [snapshot.events, selected, now],
  );
  const open = notes.filter((n) => !n.consumed);
  const consumed = notes.filter((n) => n.consumed);
  return (
    <section className="notes-tab scroll-area" aria-label="Notes">
      <div className="toolbar">
        <Chips
          label="Scopes"
          options={NOTE_SCOPES.map((s) => ({ value: s, label: titleCase(s) }))}
          selected={selected}
          onChange={(next) => setScopesParam(formatSelection(next))}
        />
      </div>
      {notes.length === 0 && snapshot.status === 'ready' && <p className="empty">No current notes.</p>}
      {ORDER.map((urgency) => {
        const group = open.filter((n) => n.urgency === urgency);
        if (group.length === 0) return null;
        return (
          <section key={urgency} className={`note-group urgency-${urgency}`} aria-label={`${titleCase(urgency)} notes`}>
            <h3>
              {titleCase(urgency)} <span className="muted">{group.length}</span>
            </h3>
            {group.map((n) => (
              <NoteCard key={n.id} note={n} />
            ))}
          </section>
        );
      })}
      {consumed.length > 0 && (
        <details className="note-group consumed">
          <summary>Consumed ({consumed.length})</summary>
          {consumed.map((n) => (
            <NoteCard key={n.id} note={n} />
          ))}
        </details>
      )}
    </section>
  );
}

function NoteCard({ note }: { note: NoteEvent }) {
  const { api } = useApi();
  const { timeline, snapshot } = useTimeline();
  const consume = useAction(async () => {
    const { target, record } = await api.consumeNote(note.id);
    timeline.upsert(record);
    timeline.upsert(target);
  });
  return (
    <article className={`note note-${note.urgency}${note.consumed ? ' is-consumed' : ''}`} aria-label={`Note: ${note.title}`}>
      <header className="activity-header">
        <span className="pill" style={{ '--hue': hueOf(note.noteType) } as CSSProperties}>
          {titleCase(note.noteType)}
        </span>
        <strong>{note.title}</strong>
        <span className="pill scope">{note.scope}</span>
        {note.tags.map((t) => (
          <span key={t} className="tag">
            #{t}
          </span>
        ))}
        <span className="spacer" />
        <span className="muted">
          {actorLabel(note.actor)} · {formatTime(note.createdAt)}
        </span>
      </header>
      {note.summary && <p className="note-summary">{note.summary}</p>}
      <ContentBlocks blocks={note.content} />
      <ShowFull id={note.id} cut={snapshot.cut.get(note.id)} timeline={timeline} />
      <footer className="activity-actions">
        {note.expiresAt && <span className="muted">expires {formatTime(note.expiresAt)}</span>}
        {note.consumed && note.consumedBy ? (
          <span className="muted">
            Consumed by {actorLabel(note.consumedBy.actor)} · {formatTime(note.consumedBy.at)}
          </span>
        ) : (
          <button type="button" className="button" onClick={consume.run} disabled={consume.busy}>
            {consume.busy ? 'Consuming…' : 'Consume'}
          </button>
        )}
        {consume.error && (
          <span className="error" role="alert">
            {consume.error}
          </span>
        )}
      </footer>
    </article>
  );
}
