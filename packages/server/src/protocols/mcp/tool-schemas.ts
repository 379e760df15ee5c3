import {
  ActivityType,
  Artifact,
  ContentBlock,
  Context,
  FileBlock,
  Id,
  Json,
  Label,
  LongText,
  Metadata,
  Name,
  NoteScope,
  NoteType,
  TaskState,
  Timestamp,
  TurnDirection,
  TurnError,
  Urgency,
  Usage,
} from '@baton/core';
import { z } from 'zod';
import { ActivityEventOut, NoteEventOut, TaskOut } from './output-schemas.js';

/**
 * Input and output schemas of the MCP tools, built from the core schemas so a
 * tool accepts exactly what the hub stores. Inputs are strict: a misspelt
 * argument is an error naming it, not silently dropped.
 */

const contextId = Id.optional().describe("The context; defaults to the session's context (--context, BATON_CONTEXT, X-Baton-Context)");
const writerId = Id.optional().describe('Your id for this entry (ULID or UUID); retrying with the same id stores it once');
const taskId = Id.optional().describe('The task in this context the entry belongs to');
const refs = z.array(Id).max(1000).optional().describe('Ids of events or tasks this entry refers to');
const parentId = Id.optional().describe('The event this one answers or continues (threading)');

/** What a tool that appends returns: where the event landed. */
export const EventRef = z.object({
  id: Id,
  seq: z.number().int().positive(),
  contextId: Id,
  kind: z.enum(['turn', 'activity', 'note']),
  createdAt: Timestamp,
});
export type EventRef = z.infer<typeof EventRef>;

export const LogActivityInput = z.strictObject({
  contextId,
  activityType: ActivityType.describe(
    'agent_action: something you did; milestone: a step completed; blocker: you cannot go on without help; decision: a choice and why; human_feedback, system_event, context_import',
  ),
  text: z.string().min(1).max(1_000_000).describe('What happened, in a sentence or a paragraph (markdown)'),
  data: Json.optional().describe('Structured details (any JSON), stored as a data part'),
  files: z
    .array(FileBlock.omit({ type: true }))
    .max(100)
    .optional()
    .describe('Files this entry is about (uri, mediaType, name), stored as file parts'),
  taskId,
  refs,
  parentId,
  id: writerId,
});

export const LogTurnInput = z.strictObject({
  contextId,
  direction: TurnDirection.describe('prompt: what a model was asked; response: what it answered'),
  content: z
    .array(ContentBlock)
    .max(10_000)
    .describe('Content blocks as the model SDKs and MCP use them (text, thinking, tool_use, tool_result, image, file, data, …)'),
  phase: Name.optional().describe('plan, review, execute, verify, revision, critique, adjudicate, or any name'),
  round: z.number().int().nonnegative().optional().describe('Iteration number within the phase'),
  model: Name.optional(),
  provider: Name.optional(),
  speaker: Label.optional().describe('Who speaks in this turn, when not the model (a persona, a reviewer)'),
  usage: Usage.optional(),
  error: TurnError.optional().describe('The call failed: what the provider said'),
  stepId: Name.optional().describe('The pipeline step that made this call'),
  taskId,
  refs,
  parentId,
  id: writerId,
});

export const DEFAULT_ACTIVITY_LIMIT = 50;

export const ReadContextInput = z.strictObject({
  contextId,
  activityLimit: z
    .number()
    .int()
    .min(0)
    .max(1000)
    .optional()
    .describe(`How much recent activity to include, as A2A historyLength: omitted = ${DEFAULT_ACTIVITY_LIMIT}, 0 = none, N = the last N`),
});

export const ReadContextOutput = z.object({
  context: Context,
  tasks: z.array(TaskOut),
  activity: z.array(ActivityEventOut),
  /** Older activity exists beyond what was returned. */
  hasMoreActivity: z.boolean(),
});

export const ContextWriteInput = z.strictObject({
  contextId,
  type: NoteType.describe('discovery: something learnt; decision; status; request: asks others for something; alert'),
  title: Label.pipe(z.string().min(1)).describe('One line'),
  content: LongText.describe('The note itself (markdown)'),
  summary: Label.optional().describe('One-line summary for compact injection into other agents’ context'),
  scope: NoteScope.optional().describe('Who it concerns: task, thread (default), space, global'),
  tags: z.array(Name).max(100).optional().describe('Relevance tags others filter by'),
  urgency: Urgency.optional().describe('background (default), attention, blocking'),
  ttl: z
    .number()
    .int()
    .positive()
    .max(10 * 365 * 86_400)
    .optional()
    .describe('Seconds until the note stops being true; expired notes are never returned'),
  taskId,
  refs,
  id: writerId,
});

export const NoteRef = EventRef.extend({ expiresAt: Timestamp.nullable() });

export const DEFAULT_NOTE_LIMIT = 50;

export const ContextReadInput = z.strictObject({
  contextId,
  scope: NoteScope.optional().describe('Only notes of this scope'),
  type: NoteType.optional().describe('Only notes of this type'),
  minUrgency: Urgency.optional().describe('Only notes at least this urgent (background < attention < blocking)'),
  tags: z.array(Name).min(1).max(100).optional().describe('Only notes carrying at least one of these tags'),
  since: Timestamp.optional().describe('Only notes written at or after this time (ISO 8601)'),
  limit: z.number().int().min(1).max(1000).optional().describe(`The most recent N matching notes (default ${DEFAULT_NOTE_LIMIT})`),
});

export const ContextReadOutput = z.object({
  notes: z.array(NoteEventOut),
  /** More matching notes exist beyond `limit`. */
  hasMore: z.boolean(),
});

export const TaskStatusInput = z.strictObject({
  taskId: Id.optional().describe('One task; omit to list the tasks of the context'),
  contextId,
  states: z.array(TaskState).min(1).optional().describe('Only tasks in these states (when listing)'),
});

export const TasksOutput = z.object({ tasks: z.array(TaskOut) });

export const CreateTaskInput = z.strictObject({
  contextId,
  title: Label.pipe(z.string().min(1)),
  description: LongText.optional(),
  state: TaskState.optional().describe('Initial state (default submitted)'),
  parentTaskId: Id.optional().describe('The task this one was delegated from'),
  requiredCapabilities: z.array(Name).max(64).optional(),
  id: Id.optional().describe('Your id for the task'),
});

export const TaskUpdateInput = z.strictObject({
  taskId: Id,
  state: TaskState.optional().describe('New state; terminal states (completed, failed, canceled, rejected) are final'),
  message: z.string().max(100_000).optional().describe('Why the state changed; recorded on the timeline'),
  title: Label.optional(),
  description: LongText.optional(),
  artifacts: z.array(Artifact).max(100).optional().describe('Artifacts to add; one with an existing id replaces it'),
  metadata: Metadata.optional(),
});

export const TaskOutput = z.object({ task: TaskOut });

export const ResolveBlockerInput = z.strictObject({
  blockerId: Id.describe('The id of the blocker activity'),
  message: z.string().max(100_000).optional().describe('How it was resolved'),
});

export const ResolveBlockerOutput = z.object({ blocker: ActivityEventOut, resolution: EventRef });

export const ListContextsInput = z.strictObject({
  query: z.string().max(256).optional().describe('Case-insensitive match on title or description'),
  limit: z.number().int().min(1).max(1000).optional().describe('Default 50'),
  cursor: z.string().max(512).optional().describe('nextCursor of the previous page'),
});

export const ListContextsOutput = z.object({ contexts: z.array(Context), nextCursor: z.string().nullable() });

export const CreateContextInput = z.strictObject({
  id: Id.optional().describe('Your id for the context; a server-chosen ULID otherwise'),
  title: Label.pipe(z.string().min(1)),
  description: LongText.optional().describe('Markdown: the plan, the goal, what others should know'),
  parentId: Id.optional(),
  metadata: Metadata.optional(),
});

export const ContextOutput = z.object({ context: Context });
