import { randomUUID } from 'node:crypto';
import { serve } from '@hono/node-server';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { z } from 'zod';

/**
 * The floor under any MCP tool call: the official SDK's McpServer with one
 * tool that stores nothing (`noop`, with an input and an output schema like
 * baton's tools), over stdio, or with `--http` over Streamable HTTP in session
 * mode with JSON responses (as baton's /mcp answers). The MCP benchmark drives
 * it with the same SDK client it drives baton and server-memory with.
 */
function server(): McpServer {
  const mcp = new McpServer({ name: 'noop', version: '1.0.0' });
  mcp.registerTool(
    'noop',
    {
      description: 'Does nothing',
      inputSchema: { activityType: z.string(), text: z.string() },
      outputSchema: { ok: z.boolean(), length: z.number() },
      annotations: { readOnlyHint: true },
    },
    async ({ text }) => ({
      content: [{ type: 'text', text: `ok (${text.length} characters)` }],
      structuredContent: { ok: true, length: text.length },
    }),
  );
  return mcp;
}

if (process.argv.includes('--http')) {
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
  const http = serve(
    {
      hostname: '127.0.0.1',
      port: 0,
      fetch: async (request) => {
        const id = request.headers.get('mcp-session-id');
        const known = id ? sessions.get(id) : undefined;
        if (known) return known.handleRequest(request);
        const transport = new WebStandardStreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          enableJsonResponse: true,
          onsessioninitialized: (sid) => void sessions.set(sid, transport),
        });
        await server().connect(transport);
        return transport.handleRequest(request);
      },
    },
    (info) => process.stdout.write(`listening on http://127.0.0.1:${info.port}\n`),
  );
  process.on('SIGTERM', () => http.close(() => process.exit(0)));
} else {
  await server().connect(new StdioServerTransport());
}
