import { type ActivityEvent, type Context, contentText, type Event, type NoteEvent, type Task } from '@baton/core';

/**
 * Text renderings of what the tools and resources return: markdown a coding
 * agent reads well. The structured form travels beside it as
 * `structuredContent`; these are for the model's eyes.
 */

const PREVIEW = 500;

function firstLines(text: string, max = PREVIEW): string {
  const trimmed = text.trim();
  return trimmed.length > max ? `${trimmed.slice(0, max)}…` : trimmed;
}

function who(event: Event): string {
  const a = event.actor;
  return a.runtime ? `${a.name ?? a.id} (${a.runtime})` : (a.name ?? a.id);
}

function label(event: Event): string {
  if (event.kind === 'activity')
    return event.activityType + (event.activityType === 'blocker' ? (event.resolved ? ' (resolved)' : ' (open)') : '');
  if (event.kind === 'note') return `${event.noteType} note`;
  return `${event.direction}${event.phase ? ` · ${event.phase}` : ''}${event.round !== null ? ` · round ${event.round}` : ''}`;
}

/** One line per event: `#12 2025-01-01T10:00Z codex (codex) · milestone: text` (event id last, for follow-up calls). */
export function eventLine(event: Event): string {
  const body = event.kind === 'note' ? event.title : contentText(event.content);
  const text = firstLines(body.replaceAll(/\s*\n\s*/g, ' '), 300);
  return `- #${event.seq} ${event.createdAt.slice(0, 16)}Z ${who(event)} · ${label(event)}: ${text || '(no text)'} [${event.id}]`;
}

export function taskLine(task: Task): string {
  return `- **${task.state}** ${task.title || '(untitled)'} [${task.id}]${task.parentTaskId ? ` ← ${task.parentTaskId}` : ''}`;
}

export function noteBlock(note: NoteEvent): string {
  const head = `- **${note.urgency}** ${note.noteType} (${note.scope}) **${note.title}** — ${who(note)}, #${note.seq} [${note.id}]`;
  const meta = [note.tags.length ? `tags: ${note.tags.join(', ')}` : '', note.expiresAt ? `expires ${note.expiresAt}` : '']
    .filter(Boolean)
    .join('; ');
  const body = firstLines(note.summary ?? contentText(note.content));
  return [head, meta ? `  ${meta}` : '', body ? `  ${body.replaceAll('\n', '\n  ')}` : ''].filter(Boolean).join('\n');
}

export interface ContextView {
  context: Context;
  tasks: readonly Task[];
  activity: readonly ActivityEvent[];
  hasMoreActivity?: boolean;
  notes?: readonly NoteEvent[];
}

/** The context as one markdown document: what a starting agent reads first. */
export function contextMarkdown(view: ContextView): string {
  const { context, tasks, activity, notes } = view;
  const lines = [
    `# ${context.title || context.id}`,
    '',
    `context \`${context.id}\` · ${context.eventCount} events · updated ${context.updatedAt}`,
  ];
  if (context.description.trim()) lines.push('', context.description.trim());
  lines.push('', `## Tasks (${tasks.length})`, '');
  lines.push(...(tasks.length ? tasks.map(taskLine) : ['(none)']));
  const open = activity.filter((a) => a.activityType === 'blocker' && !a.resolved);
  if (open.length) lines.push('', '## Open blockers', '', ...open.map(eventLine));
  if (notes?.length) lines.push('', '## Notes', '', ...notes.map(noteBlock));
  lines.push('', `## Recent activity (${activity.length}${view.hasMoreActivity ? ', older entries exist' : ''})`, '');
  lines.push(...(activity.length ? activity.map(eventLine) : ['(none)']));
  return `${lines.join('\n')}\n`;
}
