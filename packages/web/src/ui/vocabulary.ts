/*
 * Core's vocabularies, from the entry point that carries no zod schemas:
 * importing them from `@baton/core` would bring zod (a fifth of the bundle)
 * into the browser, where nothing is validated.
 */
export {
  ACTIVITY_TYPES,
  isTerminalState,
  KNOWN_PHASES,
  NOTE_SCOPES,
  TASK_STATES,
  TERMINAL_TASK_STATES,
  URGENCIES,
} from '@baton/core/plain';
