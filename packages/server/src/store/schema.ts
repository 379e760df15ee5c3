/**
 * Tables as both stores hold them. JSON lives in text columns (PostgreSQL's
 * jsonb rejects \u0000, which agents' tool output does contain); times are
 * epoch milliseconds; `seq` is assigned from the `counters` row inside the
 * appending transaction, so seq order is commit order on every store.
 */
export interface ContextsTable {
  id: string;
  title: string;
  description: string;
  owner: string | null;
  parent_id: string | null;
  metadata: string;
  imported_from: string | null;
  event_count: number;
  last_seq: number;
  created_at: number;
  updated_at: number;
}

export interface TasksTable {
  id: string;
  context_id: string;
  title: string;
  description: string;
  state: string;
  parent_task_id: string | null;
  required_capabilities: string;
  artifacts: string;
  metadata: string;
  created_at: number;
  updated_at: number;
}

export interface EventsTable {
  seq: number;
  id: string;
  context_id: string;
  kind: string;
  /** activityType or noteType. */
  type: string | null;
  direction: string | null;
  phase: string | null;
  round: number | null;
  step_id: string | null;
  actor_id: string;
  task_id: string | null;
  parent_id: string | null;
  /** Null for shared events; the owning runtime's key for private ones. */
  private_to: string | null;
  created_at: number;
  /** The rest of the event, compacted (see rows.ts). */
  body: string;
  /** Projected mutable facts (blocker resolved, note consumed); null until changed. */
  projection: string | null;
}

export interface CountersTable {
  name: string;
  value: number;
}

export interface CheckpointsTable {
  id: string;
  agent_id: string;
  session_id: string | null;
  label: string;
  timestamp: number;
  metadata: string;
  context_id: string | null;
  task_id: string | null;
  created_at: number;
}

export interface CheckpointArtifactsTable {
  checkpoint_id: string;
  name: string;
  media_type: string;
  size: number;
  content: Uint8Array;
}

export interface SubscriptionsTable {
  id: string;
  owner: string;
  owner_key: string;
  filter: string;
  delivery_mode: string;
  endpoint: string | null;
  secret: string | null;
  cursor: number;
  failures: number;
  last_error: string | null;
  last_delivered_at: number | null;
  retry_at: number | null;
  lease_owner: string | null;
  lease_until: number | null;
  created_at: number;
  updated_at: number;
}

export interface YjsDocsTable {
  context_id: string;
  head: number;
  base: number;
  projected_seq: number;
  updated_at: number;
}

export interface YjsUpdatesTable {
  context_id: string;
  seq: number;
  data: Uint8Array;
}

/** One embedded passage of an event (migration 005). */
export interface EventVectorsTable {
  seq: number;
  /** The passage's index within the event's text (search/passages.ts). */
  chunk: number;
  /** The model (and dimensions) that made the vector. */
  space: string;
  /** Little-endian float32, unit length. */
  vector: Uint8Array;
}

/** Which events a vector space covers, and who may embed more. */
export interface EmbeddingSpacesTable {
  space: string;
  dims: number | null;
  /** Every event in (low_seq, high_seq] is embedded. */
  low_seq: number;
  high_seq: number;
  lease_owner: string | null;
  lease_until: number | null;
  updated_at: number;
}

export interface Database {
  contexts: ContextsTable;
  tasks: TasksTable;
  events: EventsTable;
  counters: CountersTable;
  checkpoints: CheckpointsTable;
  checkpoint_artifacts: CheckpointArtifactsTable;
  subscriptions: SubscriptionsTable;
  yjs_docs: YjsDocsTable;
  yjs_updates: YjsUpdatesTable;
  event_vectors: EventVectorsTable;
  embedding_spaces: EmbeddingSpacesTable;
}
