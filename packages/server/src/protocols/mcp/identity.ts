import { Actor, parseWith } from '@baton/core';

/**
 * Who an MCP session writes as, and the context its tools default to. stdio
 * takes it from flags or BATON_AGENT / BATON_RUNTIME / BATON_CONTEXT; /mcp
 * from X-Baton-* headers or query parameters.
 */
export interface McpIdentity {
  /** The actor id; when absent, the name the MCP client gives in `initialize`. */
  agent?: string | undefined;
  runtime?: string | undefined;
  /** The context tools use when a call names none. */
  contextId?: string | undefined;
}

/** Used when neither the identity nor the client names the agent. */
export const UNNAMED_AGENT = 'mcp-agent';

/**
 * The actor a session writes as. Without an explicit agent name, the client's
 * own name from `initialize` (e.g. `claude-code`) is better than nothing; it
 * is dropped if it is not a valid actor id. Explicit values must be valid.
 */
export function resolveActor(identity: McpIdentity, clientName: string | undefined): Actor {
  const runtime = identity.runtime ?? null;
  if (identity.agent !== undefined) return parseWith(Actor, { id: identity.agent, runtime, role: 'agent' }, 'identity');
  const fromClient = clientName ? Actor.safeParse({ id: clientName, runtime, role: 'agent' }) : undefined;
  return fromClient?.success ? fromClient.data : parseWith(Actor, { id: UNNAMED_AGENT, runtime, role: 'agent' }, 'identity');
}
