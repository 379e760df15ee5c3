import { BatonError, isBatonError } from '@baton/core';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import type { Logger } from '../../log.js';
import type { McpBackend } from './backend.js';
import { toolError } from './errors.js';

/** What a tool handler can reach: the session's backend and its default context. */
export interface ToolSession {
  backend(): McpBackend;
  readonly defaultContextId: string | undefined;
  readonly log: Logger | undefined;
}

/** The context a call acts on: the one it names, else the session's. */
export function contextOf(session: ToolSession, contextId: string | undefined): string {
  const id = contextId ?? session.defaultContextId;
  if (id === undefined) {
    throw BatonError.invalid(
      [{ path: 'contextId', message: 'required: name the context, or give the session one (baton mcp --context ID, BATON_CONTEXT)' }],
      'arguments',
    );
  }
  return id;
}

export interface ToolReply<O> {
  structured: O;
  text: string;
}

export interface ToolSpec<I extends z.ZodObject, O extends z.ZodObject> {
  title: string;
  description: string;
  input: I;
  output: O;
  annotations: ToolAnnotations;
  run(args: z.infer<I>, session: ToolSession): Promise<ToolReply<z.infer<O>>>;
}

/** Declares a tool without losing the link between its schemas and its handler's types. */
export function tool<I extends z.ZodObject, O extends z.ZodObject>(spec: ToolSpec<I, O>): ToolSpec<I, O> {
  return spec;
}

/**
 * Registers a tool whose failures become results with `isError` (MCP: tool
 * execution errors are for the model to read and correct), in one place.
 * Arguments that do not match the input schema are rejected by the SDK before
 * `run` starts, so nothing is stored.
 */
export function registerTool<I extends z.ZodObject, O extends z.ZodObject>(
  mcp: McpServer,
  name: string,
  spec: ToolSpec<I, O>,
  session: ToolSession,
): void {
  const annotations: ToolAnnotations = { title: spec.title, openWorldHint: false, ...spec.annotations };
  // Widened to the plain object schema: the SDK's callback type cannot follow a generic schema.
  const inputSchema: z.ZodObject = spec.input;
  const outputSchema: z.ZodObject = spec.output;
  mcp.registerTool(name, { title: spec.title, description: spec.description, inputSchema, outputSchema, annotations }, async (args) => {
    try {
      // The SDK has parsed `args` with `spec.input` before calling this.
      const reply = await spec.run(args as z.infer<I>, session);
      return { content: [{ type: 'text' as const, text: reply.text }], structuredContent: reply.structured as Record<string, unknown> };
    } catch (error) {
      if (!isBatonError(error)) session.log?.error({ err: error, tool: name }, 'MCP tool failed');
      return toolError(error);
    }
  });
}
