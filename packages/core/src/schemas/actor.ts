import { z } from 'zod';
import { Label, Name } from './primitives.js';

export const ACTOR_ROLES = ['user', 'agent', 'system'] as const;
export const ActorRole = z.enum(ACTOR_ROLES);

/** Who wrote something: an agent, a human in the web UI, or the system. */
export const Actor = z.strictObject({
  id: Name,
  name: Label.nullable().default(null),
  /** The agent runtime, e.g. `claude-code`, `codex`, `openclaw`, a pipeline's name. */
  runtime: Name.nullable().default(null),
  role: ActorRole.default('agent'),
});
export type Actor = z.infer<typeof Actor>;
export type ActorInput = z.input<typeof Actor>;

export const SYSTEM_ACTOR: Actor = { id: 'baton', name: 'baton', runtime: null, role: 'system' };
