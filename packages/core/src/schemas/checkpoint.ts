import { z } from 'zod';
import { Id, Label, Metadata, Name, Timestamp } from './primitives.js';

/** A named blob of a checkpoint (transcript, prompts, context, metadata, any name). */
export const CheckpointArtifactInfo = z.strictObject({
  name: Name,
  /** Stored in a column, so it must be column-safe (no NUL). */
  mediaType: Label.max(255),
  size: z.number().int().nonnegative(),
});
export type CheckpointArtifactInfo = z.infer<typeof CheckpointArtifactInfo>;

/** A snapshot of an agent's work (MAP trajectory checkpoint). */
export const Checkpoint = z.strictObject({
  id: Id,
  agentId: Name,
  sessionId: Name.nullable(),
  label: Label,
  /** When the work was snapshotted, as the agent reports it. */
  timestamp: Timestamp,
  /** Free-form: files touched, branch, commit, token usage. */
  metadata: Metadata,
  contextId: Id.nullable(),
  taskId: Id.nullable(),
  artifacts: z.array(CheckpointArtifactInfo),
  createdAt: Timestamp,
});
export type Checkpoint = z.infer<typeof Checkpoint>;

export const NewCheckpointArtifact = z.strictObject({
  name: Name,
  mediaType: Label.max(255).default('text/plain'),
  /** UTF-8 text, or base64 bytes with `encoding: 'base64'`. */
  content: z.string(),
  encoding: z.enum(['utf8', 'base64']).default('utf8'),
});

export const NewCheckpoint = z.strictObject({
  id: Id.optional(),
  agentId: Name,
  sessionId: Name.nullable().default(null),
  label: Label.default(''),
  timestamp: Timestamp.optional(),
  metadata: Metadata.default({}),
  contextId: Id.nullable().default(null),
  taskId: Id.nullable().default(null),
  artifacts: z.array(NewCheckpointArtifact).max(100).default([]),
});
export type NewCheckpoint = z.infer<typeof NewCheckpoint>;
export type NewCheckpointInput = z.input<typeof NewCheckpoint>;
