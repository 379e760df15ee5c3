import type { ActivityEvent, Event } from '@baton/core';
import { type CSSProperties, useState } from 'react';
import { useApi } from '../../api/api-context.js';
import type { ContentCut, Timeline } from '../../state/timeline.js';
import { hueOf } from '../../ui/colors.js';
import { actorLabel, formatTime, titleCase } from '../../ui/format.js';
import { useAction } from '../../ui/use-action.js';
import { ContentBlocks } from '../conversations/content-blocks.js';
import { ShowFull } from '../show-full.js';
import { FeedbackForm } from './feedback-form.js';

/** One entry of the activity feed; blockers stand out and can be resolved, any entry can get feedback. */
export function ActivityItem({
  event,
  timeline,
  refersTo,
  cut,
}: {
  event: ActivityEvent;
  timeline: Timeline;
  refersTo: Event | undefined;
  /** Set when the entry was listed with its content cut to a preview. */
  cut: ContentCut | undefined;
}) {
  const { api } = useApi();
  const [replying, setReplying] = useState(false);
  const openBlocker = event.activityType === 'blocker' && !event.resolved;
  const resolve = useAction(async () => {
    const { target, record } = await api.resolveBlocker(event.id);
    timeline.upsert(record);
    timeline.upsert(target);
  });

  return (
    <article
      className={`activity activity-${event.activityType}${openBlocker ? ' open-blocker' : ''}`}
      aria-label={`${titleCase(event.activityType)} by ${actorLabel(event.actor)}`}
      data-event-id={event.id}
    >
      <header className="activity-header">
        <span className="pill type" style={{ '--hue': hueOf(event.activityType) } as CSSProperties}>
          {titleCase(event.activityType)}
        </span>
        <strong>{actorLabel(event.actor)}</strong>
        <span className="muted">{event.actor.role}</span>
        <span className="spacer" />
        <time className="muted" dateTime={event.createdAt}>
          {formatTime(event.createdAt)}
        </time>
      </header>
      {refersTo && (
        <p className="thread-parent">
          ↳ about: <span className="muted">{describe(refersTo)}</span>
        </p>
      )}
      <ContentBlocks blocks={event.content} />
      <ShowFull id={event.id} cut={cut} timeline={timeline} />
      {event.activityType === 'blocker' && event.resolved && event.resolvedBy && (
        <p className="resolved">
          Resolved by {actorLabel(event.resolvedBy.actor)} · {formatTime(event.resolvedBy.at)}
        </p>
      )}
      <div className="activity-actions">
        {openBlocker && (
          <button type="button" className="button danger" onClick={resolve.run} disabled={resolve.busy}>
            {resolve.busy ? 'Resolving…' : 'Resolve'}
          </button>
        )}
        {!replying && (
          <button type="button" className="button" onClick={() => setReplying(true)}>
            Give feedback
          </button>
        )}
        {resolve.error && (
          <span className="error" role="alert">
            {resolve.error}
          </span>
        )}
      </div>
      {replying && <FeedbackForm timeline={timeline} about={event.id} label="Feedback on this entry" onDone={() => setReplying(false)} />}
    </article>
  );
}

function describe(event: Event): string {
  const text = event.content.find((b) => b.type === 'text');
  const preview = text && text.type === 'text' ? text.text.slice(0, 80) : '';
  const what = event.kind === 'activity' ? titleCase(event.activityType) : event.kind === 'note' ? `Note “${event.title}”` : 'Turn';
  return `${what} by ${actorLabel(event.actor)}${preview ? ` — ${preview}` : ''}`;
}
