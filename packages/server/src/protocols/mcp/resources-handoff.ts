import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { protocolError } from './errors.js';
import type { ToolSession } from './tool-kit.js';

/** The shared context of the session's context (reference/002 question 3: `team-context://current`). */
export const TEAM_CONTEXT_URI = 'team-context://current';
const BUDGET = 4_000;

export function registerHandoffResources(mcp: McpServer, session: ToolSession): void {
  mcp.registerResource(
    'team-context',
    TEAM_CONTEXT_URI,
    {
      title: 'Shared context',
      description: `What a starting agent needs from the session's context (or the most recently updated one), cut to ${BUDGET} tokens`,
      mimeType: 'text/markdown',
    },
    async (uri) => {
      try {
        const backend = session.backend();
        const contextId = session.defaultContextId ?? (await backend.listContexts({ limit: 1 })).contexts[0]?.id;
        if (!contextId) throw new McpError(ErrorCode.InvalidParams, 'no context yet: create one, or start the session with --context');
        const shared = await backend.sharedContext(contextId, { tokenBudget: BUDGET, format: 'markdown' });
        return { contents: [{ uri: uri.toString(), mimeType: 'text/markdown', text: shared.rendering }] };
      } catch (error) {
        throw error instanceof McpError ? error : protocolError(error);
      }
    },
  );
}
