import type { Checkpoint, CheckpointArtifactInfo, Context, Event, EventKind, Task, TaskState } from '@baton/core';
import type { PreparedEvent, Projection } from './rows.js';

/**
 * The storage seam. Two implementations (SQLite, PostgreSQL) pass one
 * conformance suite (store.case.ts). The hub is its only caller; no surface
 * reaches storage on its own.
 *
 * Reads see committed data only. Every change happens inside `write`, one
 * transaction: on PostgreSQL, appends take the `counters` row lock, so the
 * seq order of events is their commit order and a reader that has seen seq N
 * will never later find a committed event below N.
 */
export interface Store {
  readonly dialect: 'sqlite' | 'postgres';
  /** Brings the schema to the newest migration, reporting each step as it starts and ends. */
  migrate(onProgress?: (step: MigrationProgress) => void): Promise<MigrationReport>;
  /** Runs `fn` in one transaction: all of its writes commit, or none do. */
  write<T>(fn: (tx: StoreWriter) => Promise<T>): Promise<T>;

  getContext(id: string): Promise<Context | undefined>;
  listContexts(query: ContextFilter): Promise<Context[]>;
  getTask(id: string): Promise<Task | undefined>;
  listTasks(query: TaskFilter): Promise<Task[]>;
  getEvent(id: string): Promise<Event | undefined>;
  listEvents(query: EventFilter): Promise<Event[]>;
  getCheckpoint(id: string): Promise<Checkpoint | undefined>;
  listCheckpoints(query: CheckpointFilter): Promise<Checkpoint[]>;
  readCheckpointArtifact(checkpointId: string, name: string): Promise<StoredArtifact | undefined>;

  /** Bytes the store occupies on disk (database file, or relation sizes), for stats and benchmarks. */
  sizeOnDisk(): Promise<number>;
  close(): Promise<void>;
}

/** Operations inside one transaction. Reads here see the transaction's own writes. */
export interface StoreWriter {
  getContext(id: string): Promise<Context | undefined>;
  insertContext(context: Context): Promise<void>;
  updateContext(context: Context): Promise<void>;
  /** Removes the context with its events, tasks and checkpoints. */
  deleteContext(id: string): Promise<DeleteCounts>;

  /** On PostgreSQL the row stays locked until the transaction ends. */
  getTask(id: string): Promise<Task | undefined>;
  insertTask(task: Task): Promise<void>;
  updateTask(task: Task): Promise<void>;

  getEvent(id: string): Promise<Event | undefined>;
  /** The stored events among `ids` (for idempotent retries). */
  findEvents(ids: readonly string[]): Promise<Map<string, Event>>;
  /** Assigns consecutive seqs, stamps `createdAt`, bumps each context's counters. */
  appendEvents(events: readonly PreparedEvent[], now: number): Promise<Event[]>;
  setProjection(eventId: string, projection: Projection): Promise<void>;

  insertCheckpoint(checkpoint: Checkpoint, artifacts: readonly StoredArtifact[]): Promise<void>;
}

export interface DeleteCounts {
  events: number;
  tasks: number;
  checkpoints: number;
}

export interface StoredArtifact extends CheckpointArtifactInfo {
  content: Uint8Array;
}

export interface ContextFilter {
  q?: string;
  parentId?: string;
  /** Keyset cursor: contexts updated before this point (updatedAt ms, id). */
  before?: { updatedAt: number; id: string };
  limit: number;
}

export interface TaskFilter {
  contextId?: string;
  states?: readonly TaskState[];
  parentTaskId?: string;
  /** Keyset cursor: tasks created after this point (createdAt ms, id). */
  after?: { createdAt: number; id: string };
  limit: number;
}

export interface EventFilter {
  contextId?: string;
  kinds?: readonly EventKind[];
  /** activityType or noteType values. */
  types?: readonly string[];
  phases?: readonly string[];
  direction?: 'prompt' | 'response';
  actorIds?: readonly string[];
  taskId?: string;
  stepId?: string;
  parentId?: string;
  afterSeq?: number;
  beforeSeq?: number;
  sinceMs?: number;
  untilMs?: number;
  /**
   * Whose private events may be returned: null returns every event; a key
   * returns shared events plus the private events of that runtime.
   */
  viewerKey: string | null;
  order: 'asc' | 'desc';
  limit: number;
}

export interface CheckpointFilter {
  contextId?: string;
  agentId?: string;
  sessionId?: string;
  limit: number;
}

export interface MigrationProgress {
  name: string;
  status: 'running' | 'done';
  ms?: number;
}

export interface MigrationReport {
  applied: string[];
  current: string | null;
}
