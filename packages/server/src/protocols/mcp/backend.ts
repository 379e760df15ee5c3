import type {
  Artifact,
  Context,
  ContextFormat,
  Event,
  EventPage,
  EventQueryInput,
  LiveFilter,
  NewContextInput,
  NewEventInput,
  NewTaskInput,
  SearchMode,
  SearchResult,
  Task,
  TaskState,
} from '@baton/core';
import type { z } from 'zod';
import type { SharedContextResult } from '../../client/baton-client.js';

/** `GET /api/v1/search` parameters as strings (lists comma-separated). */
export interface SearchParams {
  q: string;
  context?: string;
  kind?: string;
  type?: string;
  actor?: string;
  phase?: string;
  since?: string;
  until?: string;
  limit?: number;
  mode?: SearchMode;
}

/** A change to a task as the MCP tools send it (the hub validates it). */
export interface TaskChange {
  state?: TaskState;
  title?: string;
  description?: string;
  artifacts?: z.input<typeof Artifact>[];
  metadata?: Record<string, unknown>;
  message?: string;
}

/** A running subscription to the hub's appended events. */
export interface Watch {
  /** Resolves once the subscription is live: events appended after this are delivered. */
  readonly ready: Promise<void>;
  close(): void;
}

/**
 * What the MCP tools and resources need from the hub, written once for both
 * transports: in `baton serve` it wraps the Hub with the session's Caller
 * (hub-backend.ts); in `baton mcp` it wraps the REST client and the live feed
 * (remote-backend.ts). Every method acts as the session's identity and throws
 * BatonError.
 */
export interface McpBackend {
  createContext(input: NewContextInput): Promise<Context>;
  getContext(id: string): Promise<Context>;
  listContexts(query: { q?: string; limit?: number; cursor?: string }): Promise<{ contexts: Context[]; nextCursor: string | null }>;
  /** Query values use the REST query form (lists comma-separated). */
  listEvents(contextId: string, query: EventQueryInput): Promise<EventPage>;
  appendEvent(contextId: string, event: NewEventInput): Promise<Event>;
  resolveBlocker(id: string, message?: string): Promise<{ target: Event; record: Event }>;
  createTask(contextId: string, input: NewTaskInput): Promise<Task>;
  getTask(id: string): Promise<Task>;
  listTasks(contextId: string, query: { state?: string; limit?: number }): Promise<{ tasks: Task[]; nextCursor: string | null }>;
  updateTask(id: string, change: TaskChange): Promise<Task>;
  /** Full-text, semantic or hybrid search; query values in the REST query form (lists comma-separated). */
  search(query: SearchParams): Promise<SearchResult>;
  /** The token-budgeted shared context of a context, rendered for this identity's runtime unless `format` says otherwise. */
  sharedContext(contextId: string, query: { tokenBudget?: number; format?: ContextFormat }): Promise<SharedContextResult>;
  /** Calls `onEvents` with the events anyone appends from now on that match `filter` and this identity may see. */
  watch(filter: LiveFilter, onEvents: (events: readonly Event[]) => void): Watch;
  /** Ends every watch and releases connections. */
  close(): Promise<void>;
}
