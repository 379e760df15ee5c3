import type { ActivityEvent, Event } from '@baton/core';
import { useId, useMemo, useState } from 'react';
import { useQueryParam } from '../../router.js';
import { useTimeline } from '../../state/use-timeline.js';
import { Chips, formatSelection, parseSelection } from '../../ui/chips.js';
import { hueOf } from '../../ui/colors.js';
import { actorLabel, titleCase } from '../../ui/format.js';
import { ACTIVITY_TYPES } from '../../ui/vocabulary.js';
import { ActivityItem } from './activity-item.js';
import { FeedbackForm } from './feedback-form.js';

const PAGE = 200;

function isActivity(event: Event): event is ActivityEvent {
  return event.kind === 'activity';
}

/**
 * The activity feed, newest first and live: entries arrive over the live
 * feed without a reload. Filters (type chips, actor) live in the URL. Open
 * blockers are pinned above the feed.
 */
export function ActivityTab() {
  const { timeline, snapshot } = useTimeline();
  const [typesParam, setTypesParam] = useQueryParam('types');
  const [actor, setActor] = useQueryParam('actor');
  const [shown, setShown] = useState(PAGE);
  const actorId = useId();

  const activities = useMemo(() => snapshot.events.filter(isActivity), [snapshot.events]);
  const actors = useMemo(() => {
    const seen = new Map<string, string>();
    for (const a of activities) seen.set(a.actor.id, actorLabel(a.actor));
    return [...seen].sort((a, b) => a[1].localeCompare(b[1]));
  }, [activities]);
  const counts = useMemo(() => {
    const map = new Map<string, number>();
    for (const a of activities) map.set(a.activityType, (map.get(a.activityType) ?? 0) + 1);
    return map;
  }, [activities]);
  const selected = useMemo(() => parseSelection(typesParam), [typesParam]);
  const feed = useMemo(
    () => activities.filter((a) => (selected === null || selected.has(a.activityType)) && (!actor || a.actor.id === actor)).reverse(),
    [activities, selected, actor],
  );
  const openBlockers = useMemo(() => activities.filter((a) => a.activityType === 'blocker' && !a.resolved), [activities]);
  const refersTo = (a: ActivityEvent) => {
    const id = a.parentId ?? a.refs[0];
    return id ? snapshot.byId.get(id) : undefined;
  };

  return (
    <section className="activity-tab" aria-label="Activity">
      <div className="toolbar">
        <Chips
          label="Activity types"
          options={ACTIVITY_TYPES.map((t) => ({ value: t, label: titleCase(t), count: counts.get(t) ?? 0, hue: hueOf(t) }))}
          selected={selected}
          onChange={(next) => setTypesParam(formatSelection(next))}
        />
        <div className="toolbar-row">
          <label htmlFor={actorId}>Actor</label>
          <select id={actorId} value={actor} onChange={(e) => setActor(e.target.value)}>
            <option value="">Everyone</option>
            {actors.map(([id, label]) => (
              <option key={id} value={id}>
                {label}
              </option>
            ))}
          </select>
          <span className="muted" aria-live="polite">
            {feed.length.toLocaleString('en-US')} entries
          </span>
          <span className={`live-dot live-${snapshot.live}`} title={`live feed: ${snapshot.live}`}>
            {snapshot.live === 'live' ? 'Live' : snapshot.live === 'connecting' ? 'Connecting…' : 'Offline — reconnecting'}
          </span>
        </div>
      </div>
      <div className="scroll-area">
        {openBlockers.length > 0 && (
          <section className="open-blockers" aria-label="Open blockers">
            <h3>Open blockers ({openBlockers.length})</h3>
            {openBlockers.map((b) => (
              <ActivityItem key={b.id} event={b} timeline={timeline} refersTo={refersTo(b)} cut={snapshot.cut.get(b.id)} />
            ))}
          </section>
        )}
        <FeedbackForm timeline={timeline} label="Post feedback to the agents" />
        <ol className="feed" aria-label="Activity feed">
          {feed.slice(0, shown).map((a) => (
            <li key={a.id}>
              <ActivityItem event={a} timeline={timeline} refersTo={refersTo(a)} cut={snapshot.cut.get(a.id)} />
            </li>
          ))}
        </ol>
        {feed.length === 0 && snapshot.status === 'ready' && <p className="empty">No activity matches.</p>}
        {feed.length > shown && (
          <button type="button" className="button" onClick={() => setShown((n) => n + PAGE)}>
            Show older ({(feed.length - shown).toLocaleString('en-US')} more)
          </button>
        )}
      </div>
    </section>
  );
}
