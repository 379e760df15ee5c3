import { z } from 'zod';
import { Actor } from './actor.js';
import { Json, Name, Timestamp } from './primitives.js';

/**
 * Scoped state (reference/002 question 5, after Google ADK's key prefixes):
 * `user:<userId>:<name>` follows a user across contexts (identity,
 * preferences), `team:<name>` is shared by everyone, `task:<taskId>:<name>`
 * belongs to one task and `thread:<contextId>:<name>` to one context.
 */
export const STATE_SCOPES = ['user', 'team', 'task', 'thread'] as const;
export type StateScope = (typeof STATE_SCOPES)[number];

const KEY =
  /^(user|task|thread):[A-Za-z0-9][A-Za-z0-9._~@-]{0,127}:[A-Za-z0-9][A-Za-z0-9._:~/-]{0,127}$|^team:[A-Za-z0-9][A-Za-z0-9._:~/-]{0,127}$/;

export const StateKey = z
  .string()
  .max(300)
  .regex(KEY, 'must be user:<userId>:<name>, team:<name>, task:<taskId>:<name> or thread:<contextId>:<name>');

export const StateEntry = z.strictObject({
  key: StateKey,
  scope: z.enum(STATE_SCOPES),
  /** The user, task or context id the key belongs to; null for team keys. */
  owner: z.string().nullable(),
  name: Name,
  value: Json,
  updatedBy: Actor,
  updatedAt: Timestamp,
});
export type StateEntry = z.infer<typeof StateEntry>;

export const StatePut = z.strictObject({ value: Json });

/** Splits a valid key into scope, owner and name. */
export function parseStateKey(key: string): { scope: StateScope; owner: string | null; name: string } {
  const [scope, ...rest] = key.split(':');
  if (scope === 'team') return { scope, owner: null, name: rest.join(':') };
  return { scope: scope as StateScope, owner: rest[0] ?? '', name: rest.slice(1).join(':') };
}
