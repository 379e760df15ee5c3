import { BatonError, type ErrorCode, isBatonError } from '@baton/core';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { McpError, ErrorCode as RpcCode } from '@modelcontextprotocol/sdk/types.js';

/**
 * The one place baton's errors meet MCP. A tool that fails on its input or on
 * the hub's data reports a tool result with `isError` (the model reads it and
 * can correct itself); requests the protocol itself rejects (bad resource URI,
 * unknown context in a resource) get JSON-RPC errors.
 */

/** MCP's code for a resource that does not exist (spec: server/resources, "Error Handling"). */
export const RESOURCE_NOT_FOUND = -32002;

export function toolError(error: unknown): CallToolResult {
  const e = asBatonError(error);
  return {
    content: [{ type: 'text', text: `${e.code}: ${e.message}` }],
    isError: true,
    _meta: { 'baton/error': { code: e.code, ...(e.details ? { details: e.details } : {}) } },
  };
}

const RPC_CODES: Partial<Record<ErrorCode, number>> = {
  invalid_argument: RpcCode.InvalidParams,
  not_found: RESOURCE_NOT_FOUND,
  payload_too_large: RpcCode.InvalidParams,
};

export function protocolError(error: unknown): McpError {
  if (error instanceof McpError) return error;
  const e = asBatonError(error);
  return new McpError(RPC_CODES[e.code] ?? RpcCode.InternalError, `${e.code}: ${e.message}`, { code: e.code, ...(e.details ?? {}) });
}

/** Anything else is a bug on our side: the client learns that much, the log learns the rest. */
export function asBatonError(error: unknown): BatonError {
  if (isBatonError(error)) return error;
  return new BatonError('internal', 'the server failed to handle this request; see its log', { cause: error });
}
