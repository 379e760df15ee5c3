import type { Actor } from '@baton/core';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SubscribeRequestSchema, UnsubscribeRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../../log.js';
import { VERSION } from '../../version.js';
import type { McpBackend } from './backend.js';
import { protocolError } from './errors.js';
import { registerResources } from './resources.js';
import { registerHandoffResources } from './resources-handoff.js';
import { ResourceSubscriptions } from './subscriptions.js';
import { registerTool, type ToolSession } from './tool-kit.js';
import { contextSearch, sharedContext } from './tools-handoff.js';
import { contextRead, listContexts, readContext, taskStatus } from './tools-read.js';
import { contextWrite, createContext, createTask, logActivity, logTurn, resolveBlocker, taskUpdate } from './tools-write.js';

export interface BatonMcpOptions {
  /** The actor this session writes as, given the name the client sent in `initialize`. */
  actor: (clientName: string | undefined) => Actor;
  /** The hub as this actor sees it. */
  backend: (actor: Actor) => McpBackend;
  /** The context tools and global resources use when a call names none. */
  contextId?: string | undefined;
  log?: Logger | undefined;
  /** Updates to one resource closer together than this become one notification (default 25 ms). */
  coalesceMs?: number;
}

export interface BatonMcpSession {
  readonly server: McpServer;
  /** Resources this session is subscribed to. */
  readonly subscriptionCount: number;
  /** Ends subscriptions and the backend's connections, then the server. */
  close(): Promise<void>;
}

const INSTRUCTIONS = `baton is the shared context hub of the agents and humans on this work.
Start with read_context (or the baton://contexts/{id} resource) to catch up on a context: its plan, tasks, blockers and what others did.
While working, log_activity for what you did, decided, finished or are blocked on; context_write for notes others should know; task_update as tasks move.
Subscribe to a resource to be told when someone else writes to it.`;

/**
 * One MCP session over any transport: the tools and resources, with the
 * session's identity and backend. The same function serves stdio (`baton
 * mcp`, remote backend) and each Streamable HTTP session of /mcp (in-process).
 */
export function createBatonMcpServer(options: BatonMcpOptions): BatonMcpSession {
  const mcp = new McpServer(
    { name: 'baton', title: 'baton context hub', version: VERSION },
    { capabilities: { tools: {}, resources: { subscribe: true, listChanged: true } }, instructions: INSTRUCTIONS },
  );
  let backend: McpBackend | null = null;
  const session: ToolSession = {
    // The actor is settled on first use: by then `initialize` has named the client.
    backend: () => {
      backend ??= options.backend(options.actor(mcp.server.getClientVersion()?.name));
      return backend;
    },
    defaultContextId: options.contextId,
    log: options.log,
  };

  registerTool(mcp, 'log_activity', logActivity, session);
  registerTool(mcp, 'log_turn', logTurn, session);
  registerTool(mcp, 'context_write', contextWrite, session);
  registerTool(mcp, 'read_context', readContext, session);
  registerTool(mcp, 'context_read', contextRead, session);
  registerTool(mcp, 'task_status', taskStatus, session);
  registerTool(mcp, 'create_task', createTask, session);
  registerTool(mcp, 'task_update', taskUpdate, session);
  registerTool(mcp, 'resolve_blocker', resolveBlocker, session);
  registerTool(mcp, 'list_contexts', listContexts, session);
  registerTool(mcp, 'create_context', createContext, session);
  registerTool(mcp, 'context_search', contextSearch, session);
  registerTool(mcp, 'shared_context', sharedContext, session);
  registerResources(mcp, session);
  registerHandoffResources(mcp, session);

  const subscriptions = new ResourceSubscriptions(session, (uri) => mcp.server.sendResourceUpdated({ uri }), options.coalesceMs);
  mcp.server.setRequestHandler(SubscribeRequestSchema, async (request) => {
    try {
      await subscriptions.subscribe(request.params.uri);
    } catch (error) {
      throw protocolError(error);
    }
    return {};
  });
  mcp.server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
    await subscriptions.unsubscribe(request.params.uri);
    return {};
  });

  let closing: Promise<void> | null = null;
  return {
    server: mcp,
    get subscriptionCount() {
      return subscriptions.size;
    },
    close: () => {
      closing ??= (async () => {
        await subscriptions.close();
        await backend?.close();
        await mcp.close();
      })();
      return closing;
    },
  };
}
