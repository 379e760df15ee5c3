import { z } from 'zod';
import { BatonError } from '../errors.js';
import { isTerminalState, TASK_STATES, TERMINAL_TASK_STATES } from '../vocabulary.js';
import { ContentBlock } from './content.js';
import { Id, Label, LongText, Metadata, Name, Timestamp } from './primitives.js';

export const TaskState = z.enum(TASK_STATES);
export type TaskState = z.infer<typeof TaskState>;

/**
 * Legal moves between states. Terminal states are final (A2A: a task in a
 * terminal state cannot be restarted; a follow-up is a new task).
 */
const TRANSITIONS: Record<TaskState, readonly TaskState[]> = {
  submitted: ['working', 'input-required', 'auth-required', 'completed', 'failed', 'canceled', 'rejected'],
  working: ['input-required', 'auth-required', 'completed', 'failed', 'canceled'],
  'input-required': ['working', 'completed', 'failed', 'canceled'],
  'auth-required': ['working', 'failed', 'canceled', 'rejected'],
  completed: [],
  failed: [],
  canceled: [],
  rejected: [],
};

export function canTransition(from: TaskState, to: TaskState): boolean {
  return TRANSITIONS[from].includes(to);
}

/** Throws `illegal_transition` naming both states unless `from → to` is legal. */
export function assertTransition(taskId: string, from: TaskState, to: TaskState): void {
  if (canTransition(from, to)) return;
  const why = isTerminalState(from) ? `'${from}' is a terminal state` : `allowed from '${from}': ${TRANSITIONS[from].join(', ')}`;
  throw new BatonError('illegal_transition', `task '${taskId}' cannot move from '${from}' to '${to}' (${why})`, {
    details: { taskId, from, to, allowed: [...TRANSITIONS[from]] },
  });
}

export const Artifact = z.strictObject({
  id: Id,
  name: Label.nullable().default(null),
  description: LongText.nullable().default(null),
  mimeType: z.string().max(255).nullable().default(null),
  parts: z.array(ContentBlock),
  metadata: Metadata.default({}),
});
export type Artifact = z.infer<typeof Artifact>;

/** A unit of work inside a context: an A2A task, a deliverable, a pipeline run. */
export const Task = z.strictObject({
  id: Id,
  contextId: Id,
  title: Label,
  description: LongText,
  state: TaskState,
  parentTaskId: Id.nullable(),
  /** Capabilities a runtime needs to take this task. */
  requiredCapabilities: z.array(Name),
  artifacts: z.array(Artifact),
  metadata: Metadata,
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Task = z.infer<typeof Task>;

export const NewTask = z.strictObject({
  id: Id.optional(),
  title: Label.default(''),
  description: LongText.default(''),
  state: TaskState.default('submitted'),
  parentTaskId: Id.nullable().default(null),
  requiredCapabilities: z.array(Name).max(64).default([]),
  artifacts: z.array(Artifact).default([]),
  metadata: Metadata.default({}),
});
export type NewTask = z.infer<typeof NewTask>;
export type NewTaskInput = z.input<typeof NewTask>;

export const TaskPatch = z
  .strictObject({
    state: TaskState.optional(),
    title: Label.optional(),
    description: LongText.optional(),
    /** Artifacts to add; an artifact with an existing id replaces it. */
    artifacts: z.array(Artifact).optional(),
    metadata: Metadata.optional(),
    /** Why the state changed; recorded on the timeline. */
    message: z.string().max(100_000).optional(),
  })
  .refine((p) => Object.keys(p).some((k) => k !== 'message'), { message: 'name at least one field to change' });
export type TaskPatch = z.infer<typeof TaskPatch>;

export const TaskQuery = z.strictObject({
  state: z
    .string()
    .optional()
    .transform((s) => (s ? s.split(',') : undefined))
    .pipe(z.array(TaskState).optional()),
  parentTaskId: Id.optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  cursor: z.string().max(512).optional(),
});
export type TaskQuery = z.infer<typeof TaskQuery>;

export { isTerminalState, TASK_STATES, TERMINAL_TASK_STATES };
