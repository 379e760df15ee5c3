/**
 * The closed vocabularies of baton's concepts, as plain arrays: the zod
 * schemas are built from them, and the web UI imports them from
 * `@baton/core/plain` without bringing zod into the browser bundle.
 * This module imports nothing.
 */

/** Phases named by the design; any other string is allowed too. */
export const KNOWN_PHASES = ['plan', 'review', 'execute', 'verify', 'revision', 'critique', 'adjudicate'] as const;

export const ACTIVITY_TYPES = [
  'agent_action',
  'system_event',
  'human_feedback',
  'milestone',
  'blocker',
  'decision',
  'context_import',
] as const;

export const NOTE_TYPES = ['discovery', 'decision', 'status', 'request', 'alert'] as const;

export const NOTE_SCOPES = ['task', 'thread', 'space', 'global'] as const;

/** Ordered from least to most pressing. */
export const URGENCIES = ['background', 'attention', 'blocking'] as const;

export const TURN_DIRECTIONS = ['prompt', 'response'] as const;

/** The eight A2A task states. */
export const TASK_STATES = [
  'submitted',
  'working',
  'input-required',
  'auth-required',
  'completed',
  'failed',
  'canceled',
  'rejected',
] as const;
export type TaskState = (typeof TASK_STATES)[number];

/** Terminal states are final (A2A). */
export const TERMINAL_TASK_STATES: ReadonlySet<TaskState> = new Set<TaskState>(['completed', 'failed', 'canceled', 'rejected']);

export function isTerminalState(state: TaskState): boolean {
  return TERMINAL_TASK_STATES.has(state);
}
