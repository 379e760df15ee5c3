import { contentText, type Event } from '@baton/core';
import { createColors } from 'picocolors';

/**
 * Colors only for a terminal (or FORCE_COLOR): picocolors alone also colors
 * piped output under CI, which garbles what scripts read.
 */
const pc = createColors(('FORCE_COLOR' in process.env || Boolean(process.stdout.isTTY)) && !('NO_COLOR' in process.env));

const KIND_COLOR: Record<string, (s: string) => string> = {
  blocker: pc.red,
  decision: pc.magenta,
  milestone: pc.green,
  human_feedback: pc.yellow,
  system_event: pc.dim,
  alert: pc.red,
  request: pc.yellow,
};

/** One readable line per event for `baton tail`. */
export function formatEvent(event: Event, width = 160): string {
  const time = event.createdAt.slice(11, 19);
  const who = event.actor.runtime ? `${event.actor.id}@${event.actor.runtime}` : event.actor.id;
  let label: string;
  let text: string;
  if (event.kind === 'turn') {
    label = `${event.direction}${event.phase ? `:${event.phase}` : ''}`;
    text = `${event.model ? `[${event.model}] ` : ''}${contentText(event.content)}`;
  } else if (event.kind === 'activity') {
    label = event.activityType + (event.activityType === 'blocker' && event.resolved ? ' (resolved)' : '');
    text = contentText(event.content);
  } else {
    label = `${event.noteType}/${event.urgency}`;
    text = `${event.title}${event.summary ? ` — ${event.summary}` : ''}`;
  }
  const type = event.kind === 'activity' ? event.activityType : event.kind === 'note' ? event.noteType : event.kind;
  const color = KIND_COLOR[type] ?? (event.kind === 'turn' ? pc.cyan : (s: string) => s);
  const oneLine = text.replace(/\s+/g, ' ').trim();
  const head = `${pc.dim(time)} ${pc.dim(`#${event.seq}`)} ${pc.blue(event.contextId)} ${pc.bold(who)} ${color(label)}`;
  const room = Math.max(20, width - (time.length + String(event.seq).length + event.contextId.length + who.length + label.length + 6));
  return `${head} ${oneLine.length > room ? `${oneLine.slice(0, room - 1)}…` : oneLine}`;
}
