export type { BatonErrorOptions, ErrorCode, FieldIssue } from './errors.js';
export { BatonError, ERROR_CODES, isBatonError } from './errors.js';
export type { ActorInput } from './schemas/actor.js';
export { ACTOR_ROLES, Actor, ActorRole, SYSTEM_ACTOR } from './schemas/actor.js';
export type { NewCheckpointInput } from './schemas/checkpoint.js';
export {
  Checkpoint,
  CheckpointArtifactInfo,
  NewCheckpoint,
  NewCheckpointArtifact,
} from './schemas/checkpoint.js';
export type { ContentBlockType } from './schemas/content.js';
export {
  ContentBlock,
  contentText,
  DataBlock,
  FileBlock,
  ImageBlock,
  RedactedThinkingBlock,
  ServerToolUseBlock,
  TextBlock,
  ThinkingBlock,
  ToolResultBlock,
  ToolResultContent,
  ToolUseBlock,
  WebSearchToolResultBlock,
} from './schemas/content.js';
export type { NewContextInput } from './schemas/context.js';
export { Context, ContextPatch, ContextQuery, NewContext, Provenance } from './schemas/context.js';
export type { EventQueryInput, NewEventInput } from './schemas/event.js';
export {
  ACTIVITY_TYPES,
  ActivityEvent,
  ActivityType,
  ChangeRecord,
  ConsumeInput,
  EVENT_KINDS,
  EVENT_SOURCES,
  Event,
  EventKind,
  EventPage,
  EventQuery,
  EventSource,
  KNOWN_PHASES,
  MAX_BATCH,
  NewActivity,
  NewEvent,
  NewEventBatch,
  NewNote,
  NewTurn,
  NOTE_SCOPES,
  NOTE_TYPES,
  NoteEvent,
  NoteScope,
  NoteType,
  ResolveInput,
  TURN_DIRECTIONS,
  TurnDirection,
  TurnError,
  TurnEvent,
  URGENCIES,
  Urgency,
  Usage,
  urgencyRank,
  VISIBILITIES,
  Visibility,
} from './schemas/event.js';
export type { LiveServerMessage } from './schemas/live.js';
export { LIVE_CLOSE_CODES, LiveClientMessage, LiveFilter, matchesFilter } from './schemas/live.js';
export { Id, Json, Label, LongText, Metadata, Name, Seq, Timestamp } from './schemas/primitives.js';
export type { NewTaskInput } from './schemas/task.js';
export {
  Artifact,
  assertTransition,
  canTransition,
  isTerminalState,
  NewTask,
  TASK_STATES,
  Task,
  TaskPatch,
  TaskQuery,
  TaskState,
  TERMINAL_TASK_STATES,
} from './schemas/task.js';
export { parseWith, zodIssues } from './validate.js';
