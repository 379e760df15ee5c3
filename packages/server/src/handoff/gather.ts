import {
  type Actor,
  type Context,
  contentText,
  type Event,
  SHARED_RANK,
  type SharedContextSource,
  type SharedItem,
  type StateEntry,
  type Task,
} from '@baton/core';
import type { Store } from '../store/store.js';

/** How far back each part looks. Enough for a 4K-token context; a budget cuts it further. */
const LIMITS = { notes: 300, flagged: 200, recent: 24, turns: 5, activity: 10, tasks: 100, state: 50 } as const;
/** Longer texts are cut here before token counting (the budget cuts them visibly later). */
const MAX_DETAIL_CHARS = 40_000;
const ACTIVE_STATES = ['submitted', 'working', 'input-required', 'auth-required'] as const;
const WAITING_STATES = new Set(['input-required', 'auth-required']);

export interface GatherOptions {
  /** The budget the answer will be cut to: more candidates than could ever fit are not read. */
  tokenBudget: number;
  /** Whose private events may appear (the caller's runtime): private items never reach other runtimes. */
  viewerKey: string;
  now: number;
}

function who(actor: Actor): string {
  const name = actor.name ?? actor.id;
  return actor.runtime ? `${name} (${actor.runtime})` : name;
}

function clip(text: string): string {
  const trimmed = text.trim();
  return trimmed.length > MAX_DETAIL_CHARS ? `${trimmed.slice(0, MAX_DETAIL_CHARS)}…` : trimmed;
}

function eventItem(event: Event, section: SharedItem['section'], rank: number, label: string | null, title?: string): SharedItem {
  const body = contentText(event.content);
  const summary = event.kind === 'note' ? (event.summary ?? '') : '';
  const firstLine = body.split('\n', 1)[0] ?? '';
  const heading = title ?? (event.kind === 'note' ? event.title : firstLine.slice(0, 120) || event.id);
  const rest =
    event.kind === 'note'
      ? [summary, body].filter(Boolean).join(' — ')
      : heading === firstLine.slice(0, 120)
        ? body.slice(heading.length)
        : body;
  return { section, rank, id: event.id, title: heading, detail: clip(rest), label, by: who(event.actor), at: event.createdAt };
}

function stateItem(entry: StateEntry, section: SharedItem['section'], rank: number): SharedItem {
  const value = typeof entry.value === 'string' ? entry.value : JSON.stringify(entry.value);
  return {
    section,
    rank,
    id: entry.key,
    title: entry.name,
    detail: clip(value),
    label: entry.scope,
    by: who(entry.updatedBy),
    at: entry.updatedAt,
  };
}

function taskItem(task: Task, state: readonly StateEntry[]): SharedItem {
  const needs = task.requiredCapabilities.length ? ` Needs: ${task.requiredCapabilities.join(', ')}.` : '';
  const notes = state
    .filter((s) => s.owner === task.id)
    .map((s) => `${s.name}: ${typeof s.value === 'string' ? s.value : JSON.stringify(s.value)}`);
  const waiting = WAITING_STATES.has(task.state);
  return {
    section: waiting ? 'blocked' : 'tasks',
    rank: waiting ? SHARED_RANK.attention : SHARED_RANK.task,
    id: task.id,
    title: task.title || task.id,
    detail: clip([task.description, needs, ...notes].filter(Boolean).join(' ')),
    label: task.state,
    by: null,
    at: task.updatedAt,
  };
}

/**
 * What a starting agent needs from one context (DESIGN §4, reference/002
 * question 4), newest first within each part, before any budget: open
 * blockers and blocking or attention notes, decisions with their reasoning,
 * active tasks, identity and preferences (the owner's `user:` state, `team:`
 * state), the current focus (`thread:<id>:focus`, else the latest status
 * note), recent interaction summaries. Expired and consumed notes and
 * resolved blockers are left out; private events only reach their runtime.
 */
export async function gatherSharedContext(store: Store, context: Context, options: GatherOptions): Promise<SharedContextSource> {
  const base = { contextId: context.id, viewerKey: options.viewerKey, order: 'desc' as const };
  // A note or decision line with who and when takes 40 tokens or more: a budget of B holds at most B/40 of them.
  const fits = Math.max(20, Math.ceil(options.tokenBudget / 40));
  // The newest events come from a backwards walk of (context, seq), which stops after `recent`
  // rows; filtering recent turns by kind instead would read every turn of a long session.
  const [notes, flagged, latest, tasks] = await Promise.all([
    store.listEvents({ ...base, kinds: ['note'], limit: Math.min(LIMITS.notes, fits) }),
    store.listEvents({
      ...base,
      kinds: ['activity'],
      types: ['blocker', 'decision', 'human_feedback'],
      limit: Math.min(LIMITS.flagged, fits),
    }),
    store.listEvents({ ...base, limit: LIMITS.recent }),
    store.listTasks({ contextId: context.id, states: ACTIVE_STATES, limit: LIMITS.tasks }),
  ]);
  const owners: { scope: StateEntry['scope']; owner: string | null }[] = [
    { scope: 'team', owner: null },
    { scope: 'thread', owner: context.id },
    ...tasks.map((t) => ({ scope: 'task' as const, owner: t.id })),
  ];
  if (context.owner) owners.push({ scope: 'user', owner: context.owner.id });
  const state = await store.listState({ owners, limit: LIMITS.state + tasks.length * 4 });

  const items: SharedItem[] = [];
  const live = notes.filter((n) => n.kind === 'note' && !n.consumed && !(n.expiresAt && Date.parse(n.expiresAt) <= options.now));

  // Blocked: open blockers and blocking notes, then attention notes and tasks waiting for a human.
  for (const e of flagged) {
    if (e.kind === 'activity' && e.activityType === 'blocker' && !e.resolved)
      items.push(eventItem(e, 'blocked', SHARED_RANK.blocking, 'blocker'));
  }
  for (const n of live) {
    if (n.kind === 'note' && n.urgency !== 'background') {
      items.push(eventItem(n, 'blocked', n.urgency === 'blocking' ? SHARED_RANK.blocking : SHARED_RANK.attention, n.urgency));
    }
  }
  // Decisions with their reasoning: decision notes and decision activities, newest first.
  const decisions = [
    ...live.filter((n) => n.kind === 'note' && n.noteType === 'decision' && n.urgency === 'background'),
    ...flagged.filter((e) => e.kind === 'activity' && e.activityType === 'decision'),
  ].sort((a, b) => b.seq - a.seq);
  for (const d of decisions) items.push(eventItem(d, 'decisions', SHARED_RANK.decision, 'decision'));

  for (const t of tasks) items.push(taskItem(t, state));

  if (context.owner) {
    items.push({
      section: 'identity',
      rank: SHARED_RANK.identity,
      id: context.owner.id,
      title: `Working for ${who(context.owner)}`,
      detail: '',
      label: context.owner.role,
      by: null,
      at: null,
    });
  }
  for (const entry of state) {
    if (entry.scope === 'user' || entry.scope === 'team') items.push(stateItem(entry, 'identity', SHARED_RANK.identity));
  }

  // Current focus: the thread's focus state, else the newest status note.
  const focusState = state.filter((s) => s.scope === 'thread');
  for (const entry of focusState) items.push(stateItem(entry, 'focus', SHARED_RANK.status));
  const statuses = live.filter((n) => n.kind === 'note' && n.noteType === 'status' && n.urgency === 'background');
  statuses.forEach((n, i) => {
    items.push(eventItem(n, i === 0 && focusState.length === 0 ? 'focus' : 'summaries', SHARED_RANK.status, 'status'));
  });

  // Recent interactions, one line each: responses, milestones, actions, feedback, discoveries and requests.
  const turns = latest.filter((e) => e.kind === 'turn' && e.direction === 'response').slice(0, LIMITS.turns);
  const activity = latest
    .filter((e) => e.kind === 'activity' && (e.activityType === 'milestone' || e.activityType === 'agent_action'))
    .slice(0, LIMITS.activity);
  const recent = [
    ...turns,
    ...activity,
    ...flagged.filter((e) => e.kind === 'activity' && e.activityType === 'human_feedback'),
    ...live.filter((n) => n.kind === 'note' && n.urgency === 'background' && n.noteType !== 'decision' && n.noteType !== 'status'),
  ].sort((a, b) => b.seq - a.seq);
  for (const e of recent) {
    const label = e.kind === 'turn' ? (e.phase ?? 'turn') : e.kind === 'activity' ? e.activityType : e.noteType;
    items.push(eventItem(e, 'summaries', SHARED_RANK.summary, label));
  }
  return { contextId: context.id, title: context.title, items };
}
