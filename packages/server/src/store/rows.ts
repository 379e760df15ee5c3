import type { ActivityEvent, Actor, Checkpoint, CheckpointArtifactInfo, Context, Event, NoteEvent, Task, TurnEvent } from '@baton/core';
import type { CheckpointsTable, ContextsTable, EventsTable, TasksTable } from './schema.js';

/**
 * Mapping between domain objects and rows. Events are compacted: fields held
 * in columns, nulls, empty lists and defaults are left out of `body` and put
 * back on read, which keeps a typical activity event near 200 bytes on disk.
 */

/** An event as the store receives it: complete but for seq and createdAt. */
export type PreparedEvent =
  | Omit<TurnEvent, 'seq' | 'createdAt'>
  | Omit<ActivityEvent, 'seq' | 'createdAt' | 'resolved' | 'resolvedBy'>
  | Omit<NoteEvent, 'seq' | 'createdAt' | 'consumed' | 'consumedBy'>;

/** Projected facts kept apart from the immutable body. */
export type Projection = Partial<Pick<ActivityEvent, 'resolved' | 'resolvedBy'> & Pick<NoteEvent, 'consumed' | 'consumedBy'>>;

const iso = (ms: number): string => new Date(Number(ms)).toISOString();
export const toMillis = (timestamp: string): number => Date.parse(timestamp);

const COLUMN_FIELDS = new Set([
  'id',
  'contextId',
  'kind',
  'activityType',
  'noteType',
  'direction',
  'phase',
  'round',
  'stepId',
  'taskId',
  'parentId',
]);

const DEFAULTS: Record<string, unknown> = { source: 'local', visibility: 'shared', role: 'agent' };

/** null, undefined, [] or {}, without allocating: it runs for every field of every append. */
function isEmpty(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.length === 0;
  for (const _ in value) return false;
  return true;
}

function compactActor(actor: Actor): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (actor.name !== null) out.name = actor.name;
  if (actor.runtime !== null) out.runtime = actor.runtime;
  if (actor.role !== 'agent') out.role = actor.role;
  return out;
}

/** Who may see a private event: its runtime, or the actor itself when it has none. */
export function privacyKey(actor: Pick<Actor, 'id' | 'runtime'>): string {
  return actor.runtime ?? `actor:${actor.id}`;
}

export function eventToRow(event: PreparedEvent, seq: number, createdAt: number): EventsTable {
  const body: Record<string, unknown> = {};
  // for…in rather than Object.entries: no pair arrays, about half the time on the append path.
  const fields = event as Record<string, unknown>;
  for (const key in fields) {
    if (COLUMN_FIELDS.has(key)) continue;
    // An actor with nothing but its id (a column) leaves no trace in the body.
    const value = key === 'actor' ? compactActor(fields[key] as Actor) : fields[key];
    if (isEmpty(value) || DEFAULTS[key] === value) continue;
    body[key] = value;
  }
  return {
    seq,
    id: event.id,
    context_id: event.contextId,
    kind: event.kind,
    type: event.kind === 'activity' ? event.activityType : event.kind === 'note' ? event.noteType : null,
    direction: event.kind === 'turn' ? event.direction : null,
    phase: event.kind === 'turn' ? event.phase : null,
    round: event.kind === 'turn' ? event.round : null,
    step_id: event.kind === 'turn' ? event.stepId : null,
    actor_id: event.actor.id,
    task_id: event.taskId,
    parent_id: event.parentId,
    private_to: event.visibility === 'private' ? privacyKey(event.actor) : null,
    created_at: createdAt,
    body: JSON.stringify(body),
    projection: null,
  };
}

type EventRow = Omit<EventsTable, 'private_to'> & { private_to?: string | null };

export function rowToEvent(row: EventRow): Event {
  const body = JSON.parse(row.body) as Record<string, unknown>;
  const actorBody = (body.actor ?? {}) as Partial<Actor>;
  // Kind-specific fields are assigned onto the common object rather than
  // spread into a new one: spreading cost several times the JSON.parse on
  // every read (a tail of 100 events spent most of its time there).
  const event: Record<string, unknown> = {
    id: row.id,
    seq: Number(row.seq),
    contextId: row.context_id,
    taskId: row.task_id,
    parentId: row.parent_id,
    refs: (body.refs as string[] | undefined) ?? [],
    actor: { id: row.actor_id, name: actorBody.name ?? null, runtime: actorBody.runtime ?? null, role: actorBody.role ?? 'agent' },
    source: (body.source as Event['source'] | undefined) ?? 'local',
    content: (body.content as Event['content'] | undefined) ?? [],
    metadata: (body.metadata as Event['metadata'] | undefined) ?? {},
    extensions: (body.extensions as string[] | undefined) ?? [],
    visibility: (body.visibility as Event['visibility'] | undefined) ?? 'shared',
    createdAt: iso(row.created_at),
  };
  const projection = row.projection ? (JSON.parse(row.projection) as Projection) : {};
  switch (row.kind) {
    case 'turn':
      event.kind = 'turn';
      event.direction = row.direction as TurnEvent['direction'];
      event.phase = row.phase;
      event.round = row.round;
      event.speaker = (body.speaker as string | undefined) ?? null;
      event.provider = (body.provider as string | undefined) ?? null;
      event.model = (body.model as string | undefined) ?? null;
      event.stepId = row.step_id;
      event.usage = (body.usage as TurnEvent['usage'] | undefined) ?? null;
      event.error = (body.error as TurnEvent['error'] | undefined) ?? null;
      return event as TurnEvent;
    case 'activity':
      event.kind = 'activity';
      event.activityType = row.type as ActivityEvent['activityType'];
      event.resolved = projection.resolved ?? false;
      event.resolvedBy = projection.resolvedBy ?? null;
      return event as ActivityEvent;
    default:
      event.kind = 'note';
      event.noteType = row.type as NoteEvent['noteType'];
      event.title = (body.title as string | undefined) ?? '';
      event.summary = (body.summary as string | undefined) ?? null;
      event.scope = (body.scope as NoteEvent['scope'] | undefined) ?? 'thread';
      event.tags = (body.tags as string[] | undefined) ?? [];
      event.urgency = (body.urgency as NoteEvent['urgency'] | undefined) ?? 'background';
      event.expiresAt = (body.expiresAt as string | undefined) ?? null;
      event.consumed = projection.consumed ?? false;
      event.consumedBy = projection.consumedBy ?? null;
      return event as NoteEvent;
  }
}

export function contextToRow(context: Context): ContextsTable {
  return {
    id: context.id,
    title: context.title,
    description: context.description,
    owner: context.owner ? JSON.stringify(context.owner) : null,
    parent_id: context.parentId,
    metadata: JSON.stringify(context.metadata),
    imported_from: context.importedFrom ? JSON.stringify(context.importedFrom) : null,
    event_count: context.eventCount,
    last_seq: context.lastSeq,
    created_at: toMillis(context.createdAt),
    updated_at: toMillis(context.updatedAt),
  };
}

export function rowToContext(row: ContextsTable): Context {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    owner: row.owner ? (JSON.parse(row.owner) as Actor) : null,
    parentId: row.parent_id,
    metadata: JSON.parse(row.metadata),
    importedFrom: row.imported_from ? JSON.parse(row.imported_from) : null,
    eventCount: Number(row.event_count),
    lastSeq: Number(row.last_seq),
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

export function taskToRow(task: Task): TasksTable {
  return {
    id: task.id,
    context_id: task.contextId,
    title: task.title,
    description: task.description,
    state: task.state,
    parent_task_id: task.parentTaskId,
    required_capabilities: JSON.stringify(task.requiredCapabilities),
    artifacts: JSON.stringify(task.artifacts),
    metadata: JSON.stringify(task.metadata),
    created_at: toMillis(task.createdAt),
    updated_at: toMillis(task.updatedAt),
  };
}

export function rowToTask(row: TasksTable): Task {
  return {
    id: row.id,
    contextId: row.context_id,
    title: row.title,
    description: row.description,
    state: row.state as Task['state'],
    parentTaskId: row.parent_task_id,
    requiredCapabilities: JSON.parse(row.required_capabilities),
    artifacts: JSON.parse(row.artifacts),
    metadata: JSON.parse(row.metadata),
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

export function rowToCheckpoint(row: CheckpointsTable, artifacts: CheckpointArtifactInfo[]): Checkpoint {
  return {
    id: row.id,
    agentId: row.agent_id,
    sessionId: row.session_id,
    label: row.label,
    timestamp: iso(row.timestamp),
    metadata: JSON.parse(row.metadata),
    contextId: row.context_id,
    taskId: row.task_id,
    artifacts,
    createdAt: iso(row.created_at),
  };
}
