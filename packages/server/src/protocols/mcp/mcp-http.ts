import { randomUUID } from 'node:crypto';
import { Id, Name, parseWith } from '@baton/core';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Hono } from 'hono';
import { type AppEnv, resolveCaller } from '../../http/request-context.js';
import { ANONYMOUS_ACTOR, type Caller } from '../../hub/caller.js';
import type { Hub } from '../../hub/hub.js';
import type { Logger } from '../../log.js';
import { type AppendSource, HubBackend } from './hub-backend.js';
import { resolveActor } from './identity.js';
import { type BatonMcpSession, createBatonMcpServer } from './mcp-server.js';

export const MCP_PATH = '/mcp';

export interface McpHttpOptions {
  token?: string | undefined;
  /**
   * Accept only requests whose Host (and Origin, when sent) is localhost:
   * DNS-rebinding protection for a hub bound to a loopback address (MCP
   * spec, transports: "Security Warning").
   */
  localhostOnly: boolean;
  /** Largest POST body in bytes (a 5 MB turn must fit). */
  bodyLimit?: number;
  log?: Logger | undefined;
  /** Where subscriptions learn of appends; the hub's own commits by default. */
  appends?: AppendSource;
  /**
   * A session with no request for this long and no subscription is closed
   * (default 24 h). Generous on purpose: coding agents keep a session open
   * for a whole working day, and SDK clients do not reconnect after a 404.
   */
  idleMs?: number;
  /** At most this many sessions; the least recently used one makes room (default 1,000). */
  maxSessions?: number;
}

export interface McpHttp {
  readonly sessionCount: number;
  close(): Promise<void>;
}

interface HttpSession {
  mcp: BatonMcpSession;
  transport: WebStandardStreamableHTTPServerTransport;
  lastSeen: number;
}

const LOCAL_HOSTNAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

function hostnameOf(value: string): string | null {
  try {
    return new URL(value.includes('://') ? value : `http://${value}`).hostname;
  } catch {
    return null;
  }
}

/** Why a request must be refused as a possible DNS-rebinding attack, or null. */
function rebindingProblem(request: Request): string | null {
  const host = request.headers.get('host');
  if (!host || !LOCAL_HOSTNAMES.has(hostnameOf(host) ?? '')) {
    return `Host '${host ?? ''}' is not allowed: this hub listens on loopback and accepts only localhost, 127.0.0.1 and [::1]`;
  }
  const origin = request.headers.get('origin');
  if (origin && !LOCAL_HOSTNAMES.has(hostnameOf(origin) ?? ''))
    return `Origin '${origin}' is not allowed: only pages served from localhost may call this hub`;
  return null;
}

/** A header (or query parameter) that, when given, must be valid; the error names it. */
function optional(schema: typeof Id | typeof Name, value: string | null, what: string): string | undefined {
  return value === null ? undefined : parseWith(schema, value, what);
}

function rpcError(status: number, code: number, message: string): Response {
  return Response.json({ jsonrpc: '2.0', error: { code, message }, id: null }, { status });
}

/**
 * MCP over Streamable HTTP at /mcp, in session mode: `initialize` opens a
 * session (its own McpServer over the in-process hub, as the caller the
 * request's X-Baton-* headers or `?actor=&runtime=&context=` name), later
 * requests carry its Mcp-Session-Id.
 */
export function mountMcp(app: Hono<AppEnv>, hub: Hub, options: McpHttpOptions): McpHttp {
  const sessions = new Map<string, HttpSession>();
  const idleMs = options.idleMs ?? 24 * 3600_000;
  const maxSessions = options.maxSessions ?? 1000;

  const closeSession = (id: string) => {
    const session = sessions.get(id);
    sessions.delete(id);
    return session?.mcp.close();
  };

  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const [id, s] of sessions) if (now - s.lastSeen > idleMs && s.mcp.subscriptionCount === 0) void closeSession(id);
    },
    Math.min(idleMs, 5 * 60_000),
  );
  sweep.unref();

  const open = async (request: Request, caller: Caller): Promise<Response> => {
    const url = new URL(request.url);
    const contextId = optional(Id, request.headers.get('x-baton-context') ?? url.searchParams.get('context'), 'X-Baton-Context');
    const runtime = optional(Name, request.headers.get('x-baton-runtime') ?? url.searchParams.get('runtime'), 'X-Baton-Runtime');
    const named = caller.actor !== ANONYMOUS_ACTOR;
    const mcp = createBatonMcpServer({
      actor: (clientName) => (named ? caller.actor : resolveActor({ runtime }, clientName)),
      backend: (actor) => new HubBackend(hub, { ...caller, actor }, options.appends),
      contextId,
      log: options.log,
    });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      // Plain JSON answers to POSTs (the spec lets the server choose): no tool streams progress, and a JSON
      // body costs about half the round trip of an SSE stream. Resource updates use the session's GET stream.
      enableJsonResponse: true,
      onsessioninitialized: (id) => {
        if (sessions.size >= maxSessions) {
          const oldest = [...sessions].reduce((a, b) => (b[1].lastSeen < a[1].lastSeen ? b : a));
          void closeSession(oldest[0]);
        }
        sessions.set(id, { mcp, transport, lastSeen: Date.now() });
      },
      ...(options.bodyLimit ? { maxRequestBodySize: options.bodyLimit } : {}),
    });
    mcp.server.server.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
      void mcp.close();
    };
    await mcp.server.connect(transport);
    const response = await transport.handleRequest(request);
    // Anything but a successful initialize leaves no session behind.
    if (!transport.sessionId || !sessions.has(transport.sessionId)) await mcp.close();
    return response;
  };

  app.all(MCP_PATH, async (c) => {
    const request = c.req.raw;
    if (options.localhostOnly) {
      const problem = rebindingProblem(request);
      if (problem) return rpcError(403, -32000, problem);
    }
    const caller = resolveCaller({ headers: c.req.header(), query: new URL(request.url).searchParams }, options.token);
    const id = request.headers.get('mcp-session-id');
    if (id === null) {
      if (request.method !== 'POST')
        return rpcError(400, -32000, 'Bad Request: send initialize first; other requests need the Mcp-Session-Id it returns');
      return open(request, caller);
    }
    const session = sessions.get(id);
    // MCP spec (transports, session management): an unknown session is 404, and the client starts a new one.
    if (!session) return rpcError(404, -32001, `Session not found: ${id}`);
    session.lastSeen = Date.now();
    return session.transport.handleRequest(request);
  });

  return {
    get sessionCount() {
      return sessions.size;
    },
    close: async () => {
      clearInterval(sweep);
      await Promise.allSettled([...sessions.keys()].map(closeSession));
    },
  };
}
