import { z } from 'zod';
import { ACTIVITY_TYPES, KNOWN_PHASES, NOTE_SCOPES, NOTE_TYPES, TURN_DIRECTIONS, URGENCIES } from '../vocabulary.js';
import { Actor } from './actor.js';
import { ContentBlock } from './content.js';
import { Id, Label, Metadata, Name, Seq, Timestamp } from './primitives.js';

export const EVENT_KINDS = ['turn', 'activity', 'note'] as const;
export const EventKind = z.enum(EVENT_KINDS);
export type EventKind = z.infer<typeof EventKind>;

export const EVENT_SOURCES = ['local', 'a2a-remote', 'a2a-external', 'import'] as const;
export const EventSource = z.enum(EVENT_SOURCES);

export const VISIBILITIES = ['shared', 'private'] as const;
export const Visibility = z.enum(VISIBILITIES);
export type Visibility = z.infer<typeof Visibility>;

export const TurnDirection = z.enum(TURN_DIRECTIONS);

export const ActivityType = z.enum(ACTIVITY_TYPES);
export type ActivityType = z.infer<typeof ActivityType>;

export const NoteType = z.enum(NOTE_TYPES);
export type NoteType = z.infer<typeof NoteType>;

export const NoteScope = z.enum(NOTE_SCOPES);

export const Urgency = z.enum(URGENCIES);
export type Urgency = z.infer<typeof Urgency>;

export function urgencyRank(urgency: Urgency): number {
  return URGENCIES.indexOf(urgency);
}

/** Token counts and cost of one model call; null where the provider did not say. */
export const Usage = z.strictObject({
  inputTokens: z.number().int().nonnegative().nullable().default(null),
  outputTokens: z.number().int().nonnegative().nullable().default(null),
  costUsd: z.number().nonnegative().nullable().default(null),
});
export type Usage = z.infer<typeof Usage>;

export const TurnError = z.strictObject({
  message: z.string().max(100_000),
  code: z.string().max(256).nullable().default(null),
});

/** Who changed a projected fact (blocker resolved, note consumed), by which event, when. */
export const ChangeRecord = z.strictObject({ actor: Actor, eventId: Id, at: Timestamp });
export type ChangeRecord = z.infer<typeof ChangeRecord>;

/** Fields every event has, in the order they are serialized. */
const common = {
  id: Id,
  seq: Seq,
  contextId: Id,
  taskId: Id.nullable(),
  /** Threading: the event this one answers (a critique's plan, a response's prompt). */
  parentId: Id.nullable(),
  refs: z.array(Id),
  actor: Actor,
  source: EventSource,
  content: z.array(ContentBlock),
  metadata: Metadata,
  extensions: z.array(z.string().max(2048)),
  visibility: Visibility,
  createdAt: Timestamp,
};

export const TurnEvent = z.strictObject({
  ...common,
  kind: z.literal('turn'),
  direction: TurnDirection,
  phase: Name.nullable(),
  round: z.number().int().nonnegative().nullable(),
  speaker: Label.nullable(),
  provider: Name.nullable(),
  model: Name.nullable(),
  /** The pipeline step that made this call (reference/003 step log). */
  stepId: Name.nullable(),
  usage: Usage.nullable(),
  error: TurnError.nullable(),
});

export const ActivityEvent = z.strictObject({
  ...common,
  kind: z.literal('activity'),
  activityType: ActivityType,
  /** For blockers: the current projection of resolve operations. */
  resolved: z.boolean(),
  resolvedBy: ChangeRecord.nullable(),
});

export const NoteEvent = z.strictObject({
  ...common,
  kind: z.literal('note'),
  noteType: NoteType,
  title: Label,
  summary: Label.nullable(),
  scope: NoteScope,
  tags: z.array(Name),
  urgency: Urgency,
  expiresAt: Timestamp.nullable(),
  consumed: z.boolean(),
  consumedBy: ChangeRecord.nullable(),
});

export const Event = z.discriminatedUnion('kind', [TurnEvent, ActivityEvent, NoteEvent]);
export type Event = z.infer<typeof Event>;
export type TurnEvent = z.infer<typeof TurnEvent>;
export type ActivityEvent = z.infer<typeof ActivityEvent>;
export type NoteEvent = z.infer<typeof NoteEvent>;

/** What a writer sends; the server assigns seq and createdAt. */
const newCommon = {
  id: Id.optional(),
  /** Optional in bodies: the operation names the context; when given it must match. */
  contextId: Id.optional(),
  taskId: Id.nullable().default(null),
  parentId: Id.nullable().default(null),
  refs: z.array(Id).max(1000).default([]),
  /** Defaults to the caller's identity. */
  actor: Actor.optional(),
  source: EventSource.default('local'),
  content: z.array(ContentBlock).max(10_000).default([]),
  metadata: Metadata.default({}),
  extensions: z.array(z.string().max(2048)).max(100).default([]),
  visibility: Visibility.default('shared'),
};

export const NewTurn = z.strictObject({
  ...newCommon,
  kind: z.literal('turn'),
  direction: TurnDirection,
  phase: Name.nullable().default(null),
  round: z.number().int().nonnegative().nullable().default(null),
  speaker: Label.nullable().default(null),
  provider: Name.nullable().default(null),
  model: Name.nullable().default(null),
  stepId: Name.nullable().default(null),
  usage: Usage.nullable().default(null),
  error: TurnError.nullable().default(null),
});

export const NewActivity = z.strictObject({
  ...newCommon,
  kind: z.literal('activity'),
  activityType: ActivityType,
});

export const NewNote = z.strictObject({
  ...newCommon,
  kind: z.literal('note'),
  noteType: NoteType,
  title: Label.pipe(z.string().min(1)),
  summary: Label.nullable().default(null),
  scope: NoteScope.default('thread'),
  tags: z.array(Name).max(100).default([]),
  urgency: Urgency.default('background'),
  /** When the note stops being true; expired notes are never served. */
  expiresAt: Timestamp.nullable().default(null),
  /** Alternative to expiresAt: seconds from now. */
  ttlSeconds: z
    .number()
    .int()
    .positive()
    .max(10 * 365 * 86_400)
    .optional(),
});

export const NewEvent = z.discriminatedUnion('kind', [NewTurn, NewActivity, NewNote]);
export type NewEvent = z.infer<typeof NewEvent>;
export type NewEventInput = z.input<typeof NewEvent>;

export const MAX_BATCH = 1000;
export const NewEventBatch = z.strictObject({ events: z.array(NewEvent).min(1).max(MAX_BATCH) });

/** Comma-separated lists in query strings. */
function csv<T extends z.ZodType<unknown, string>>(item: T) {
  return z
    .string()
    .transform((s) => s.split(',').filter((x) => x.length > 0))
    .pipe(z.array(item).min(1))
    .optional();
}

export const EventQuery = z.strictObject({
  kind: csv(EventKind),
  activityType: csv(ActivityType),
  noteType: csv(NoteType),
  phase: csv(Name),
  direction: TurnDirection.optional(),
  /** Actor ids. */
  actor: csv(Name),
  taskId: Id.optional(),
  stepId: Name.optional(),
  /** Events with seq greater than this (a cursor). */
  after: z.coerce.number().int().nonnegative().optional(),
  /** Events with seq less than this (paging backwards). */
  before: z.coerce.number().int().positive().optional(),
  /** Events created at or after this time. */
  since: Timestamp.optional(),
  /** Events created before this time. */
  until: Timestamp.optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  /** The last N matching events, in ascending order. */
  tail: z.coerce.number().int().min(1).max(1000).optional(),
  /**
   * Cut each event's content to about this many characters (a preview for
   * lists); the page's `cut` names the events cut. GET /events/:id has the
   * full event.
   */
  preview: z.coerce.number().int().min(1).max(1_000_000).optional(),
});
export type EventQuery = z.infer<typeof EventQuery>;
export type EventQueryInput = z.input<typeof EventQuery>;

export const EventPage = z.strictObject({
  events: z.array(Event),
  /** Pass as `after` to continue forwards (also for polling). */
  nextAfter: z.number().int().nonnegative(),
  /** Pass as `before` to page backwards; null when the page is empty. */
  prevBefore: z.number().int().positive().nullable(),
  /** More events exist in the direction of paging. */
  hasMore: z.boolean(),
  /**
   * With `preview`: the events whose content was cut, with the full content's
   * size: characters and lines of its text, tool inputs and data counted as
   * indented JSON, images as their base64 characters.
   */
  cut: z.array(z.strictObject({ id: Id, chars: z.number().int().nonnegative(), lines: z.number().int().positive() })).optional(),
});
export type EventPage = z.infer<typeof EventPage>;

export const ResolveInput = z.strictObject({
  actor: Actor.optional(),
  /** How it was resolved; recorded on the timeline. */
  message: z.string().max(100_000).optional(),
});
export const ConsumeInput = ResolveInput;

export { ACTIVITY_TYPES, KNOWN_PHASES, NOTE_SCOPES, NOTE_TYPES, TURN_DIRECTIONS, URGENCIES };
