import type {
  Actor,
  Checkpoint,
  CheckpointArtifactInfo,
  Context,
  DeliveryMode,
  Event,
  EventKind,
  LiveFilter,
  Runtime,
  StateEntry,
  Task,
  TaskState,
} from '@baton/core';
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

  getSubscription(id: string): Promise<StoredSubscription | undefined>;
  /** The subscriptions registered by the owner with this privacy key, oldest first. */
  listSubscriptions(query: { ownerKey: string; limit: number }): Promise<StoredSubscription[]>;
  /** The stored updates of a context's Yjs document after `afterSeq`, oldest first. */
  listYjsUpdates(contextId: string, afterSeq: number): Promise<YjsUpdate[]>;
  /** The newest update seq of each of these Yjs documents that has been stored. */
  yjsHeads(contextIds: readonly string[]): Promise<Map<string, number>>;

  /** Full-text search over indexed events (migration 004), best first. */
  searchEvents(query: SearchFilter): Promise<SearchHitRow[]>;
  /** How far the search index has caught up with the event log. */
  searchProgress(): Promise<SearchProgress>;
  /**
   * The events nearest to `query.vector` by cosine similarity (migration 005),
   * best first, one hit per event (its best passage). Brute force: every
   * vector of the space that passes the filters is read and scored.
   */
  searchVectors(query: VectorSearchFilter): Promise<SearchHitRow[]>;
  /** Which events the vectors of `space` cover (all zeros before the first claim). */
  embeddingProgress(space: string): Promise<EmbeddingProgress>;
  getRuntime(id: string): Promise<Runtime | undefined>;
  listRuntimes(): Promise<Runtime[]>;
  getState(key: string): Promise<StateEntry | undefined>;
  listState(query: StateFilter): Promise<StateEntry[]>;

  /**
   * Calls `listener` whenever another process may have appended events
   * (PostgreSQL: LISTEN on the channel every append NOTIFYs at commit). A
   * poke carries no data: the listener pulls by seq. SQLite has one writing
   * process, whose appends the hub reports itself, so it never calls.
   */
  watchChanges(listener: () => void): Promise<() => Promise<void>>;

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

  /** Adds index rows for events above the search watermark and moves it to `upToSeq`; returns rows added. */
  indexEvents(docs: readonly SearchDocument[], upToSeq: number): Promise<number>;
  /**
   * Takes or renews, until `until`, the lease to embed events into `space`
   * when it is free, expired at `now`, or already `owner`'s, and returns the
   * space's coverage; null while another owner holds it. A space claimed for
   * the first time starts empty at the newest seq: new events are embedded
   * upward from there, older ones backfilled downward.
   */
  claimEmbedding(space: string, owner: string, now: number, until: number): Promise<EmbeddingProgress | null>;
  releaseEmbedding(space: string, owner: string): Promise<void>;
  /**
   * Stores the vectors of the events in (`afterSeq`, `upToSeq`] and extends
   * the space's coverage by that range, when it borders the coverage (just
   * above or just below); drops other spaces' vectors in the range. Returns
   * the rows added, or null when the range no longer borders the coverage
   * (another instance stored it first): nothing is written then.
   */
  storeVectors(
    space: string,
    range: { afterSeq: number; upToSeq: number },
    vectors: readonly EventVector[],
    now: number,
  ): Promise<number | null>;
  /** Forgets a space's vectors and coverage, e.g. when its model changed length. */
  resetEmbedding(space: string): Promise<void>;
  /** Forgets every space but `space` with its vectors; returns the spaces dropped. */
  dropOtherEmbeddings(space: string): Promise<number>;
  putRuntime(runtime: Runtime): Promise<void>;
  deleteRuntime(id: string): Promise<boolean>;
  putState(entry: StateEntry): Promise<void>;
  deleteState(key: string): Promise<boolean>;

  insertSubscription(subscription: StoredSubscription): Promise<void>;
  deleteSubscription(id: string): Promise<boolean>;
  /** Moves the cursor forward (never back); a delivery also clears the failure state. */
  advanceSubscription(id: string, cursor: number, at: number, delivered: boolean): Promise<StoredSubscription | undefined>;
  recordSubscriptionFailure(id: string, error: string, at: number, retryAt: number): Promise<void>;
  /**
   * Takes or renews, until `until`, the lease of every push subscription
   * whose lease is free, expired at `now`, or already `owner`'s, and returns
   * those: one instance delivers each push subscription.
   */
  claimSubscriptions(owner: string, now: number, until: number): Promise<StoredSubscription[]>;
  releaseSubscriptions(owner: string): Promise<void>;

  /**
   * Locks a context's Yjs document until the transaction ends (creating its
   * row on first use), so instances change it one at a time, each after
   * reading every update stored before.
   */
  lockYjsDoc(contextId: string, now: number): Promise<YjsDocHead>;
  /**
   * Under that lock: stores `data` as the next update (or, with `replace`, as
   * a snapshot replacing every stored update) and records how far the event
   * log has been projected into the document.
   */
  saveYjsDoc(
    contextId: string,
    change: { data: Uint8Array | null; replace: boolean; projectedSeq: number },
    now: number,
  ): Promise<YjsDocHead>;
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
  contextIds?: readonly string[];
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

/** A context subscription as stored (the API's ContextSubscription plus what only the server sees). */
export interface StoredSubscription {
  id: string;
  owner: Actor;
  /** The owner's privacy key: the only private events it may receive. */
  ownerKey: string;
  filter: LiveFilter;
  deliveryMode: DeliveryMode;
  endpoint: string | null;
  secret: string | null;
  cursor: number;
  failures: number;
  lastError: string | null;
  lastDeliveredAt: number | null;
  retryAt: number | null;
  leaseOwner: string | null;
  leaseUntil: number | null;
  createdAt: number;
  updatedAt: number;
}

/** Where a context's stored Yjs document stands. */
export interface YjsDocHead {
  /** The seq of the newest stored update (0: none yet). */
  head: number;
  /** The seq of the oldest stored update (the last snapshot). */
  base: number;
  /** Activity events up to this seq have been projected into the document. */
  projectedSeq: number;
}

export interface YjsUpdate {
  seq: number;
  data: Uint8Array;
}

/** A full-text query: every term must occur; a term is a phrase of normalized words (search/tokenize.ts). */
export interface SearchFilter {
  terms: readonly (readonly string[])[];
  contextIds?: readonly string[];
  kinds?: readonly EventKind[];
  types?: readonly string[];
  actorIds?: readonly string[];
  phases?: readonly string[];
  sinceMs?: number;
  untilMs?: number;
  /** As in EventFilter. */
  viewerKey: string | null;
  limit: number;
}

export interface SearchHitRow {
  event: Event;
  /** Which chunk of the event's text matched best. */
  chunk: number;
  /** Higher is better (see search-queries.ts). */
  score: number;
}

export interface SearchProgress {
  /** Events up to this seq are indexed. */
  indexedSeq: number;
  /** The newest seq assigned. */
  headSeq: number;
}

/** One event's normalized words, per chunk of its text. */
export interface SearchDocument {
  seq: number;
  chunks: readonly (readonly string[])[];
}

/** Filters of a vector search: as in SearchFilter, with a query vector in place of words. */
export interface VectorSearchFilter extends Omit<SearchFilter, 'terms'> {
  space: string;
  /** Unit length. Stored vectors of another length are skipped. */
  vector: Float32Array;
}

/** One embedded passage of an event. */
export interface EventVector {
  seq: number;
  /** The passage's index within the event (search/passages.ts). */
  chunk: number;
  /** Unit length. */
  vector: Float32Array;
}

/** Which events a vector space covers: every one in (fromSeq, indexedSeq]. */
export interface EmbeddingProgress {
  fromSeq: number;
  indexedSeq: number;
  /** The newest seq assigned. */
  headSeq: number;
  /** Vector length, once the first vectors are stored. */
  dims: number | null;
}

/** State entries of these (scope, owner) pairs. */
export interface StateFilter {
  owners: readonly { scope: StateEntry['scope']; owner: string | null }[];
  limit: number;
}
