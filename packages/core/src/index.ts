export { blockText } from './display-text.js';
export type { BatonErrorOptions, ErrorCode, FieldIssue } from './errors.js';
export { BatonError, ERROR_CODES, isBatonError } from './errors.js';
export { cutToBudget } from './handoff/budget.js';
export { renderSharedContext } from './handoff/render.js';
export type { ContextFormat, SharedContext, SharedContextSource, SharedItem, SharedSection } from './handoff/shared-items.js';
export { CONTEXT_FORMATS, SHARED_RANK, SHARED_SECTIONS } from './handoff/shared-items.js';
export { countTokens, TOKENIZER, truncateToTokens } from './handoff/tokens.js';
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
export type { CapabilityMatch, NewRuntimeInput } from './schemas/runtime.js';
export {
  CAPABILITY_SUPPORT,
  CapabilitySupport,
  defaultFormat,
  matchCapabilities,
  NewRuntime,
  Runtime,
  rankMatches,
} from './schemas/runtime.js';
export type { SearchQueryInput } from './schemas/search.js';
export { SEARCH_MODES, SearchHit, SearchMode, SearchQuery, SearchResult } from './schemas/search.js';
export type { SharedContextQueryInput } from './schemas/shared.js';
export { SharedContextQuery, SharedContextResponse, SharedItemSchema } from './schemas/shared.js';
export type { StateScope } from './schemas/state.js';
export { parseStateKey, STATE_SCOPES, StateEntry, StateKey, StatePut } from './schemas/state.js';
export type { NewContextSubscriptionInput } from './schemas/subscription.js';
export {
  ContextSubscription,
  CreatedContextSubscription,
  DELIVERY_MODES,
  DeliveryMode,
  NewContextSubscription,
  SubscriptionAck,
  SubscriptionEventPage,
  SubscriptionEventsQuery,
  SubscriptionStatus,
  WebhookDelivery,
  WebhookUrl,
} from './schemas/subscription.js';
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
export type { ActivityProposal, PendingActivity } from './yjs-activity.js';
export { ACTIVITY_ARRAY, addActivityUpdate, getActivityFeed, getPendingActivity, observeActivity } from './yjs-activity.js';
