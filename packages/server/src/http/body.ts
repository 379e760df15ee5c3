import { BatonError } from '@baton/core';
import type { HttpBindings } from '@hono/node-server';
import type { Context } from 'hono';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * How deeply a body's arrays and objects may nest. Validation recurses once
 * per level and runs out of stack a few thousand levels down, which would turn
 * a hostile body into a 500; real tool output nests a few dozen levels.
 */
export const MAX_JSON_DEPTH = 512;

/** The request body's bytes, refused with a 413 past `limit` (declared or streamed). */
async function readBytes(c: Context, limit: number): Promise<Uint8Array> {
  const tooLarge = () =>
    new BatonError('payload_too_large', `the request body is over the limit of ${limit} bytes`, { details: { limit } });
  // Under @hono/node-server, read node's own stream: building a web Request
  // (an AbortController, a ReadableStream) for every append costs more than
  // the rest of the request's HTTP handling.
  const incoming = (c.env as Partial<HttpBindings> | undefined)?.incoming;
  if (!incoming) {
    const declared = Number(c.req.header('content-length') ?? 0);
    if (declared > limit) throw tooLarge();
    const bytes = new Uint8Array(await c.req.arrayBuffer());
    if (bytes.byteLength > limit) throw tooLarge();
    return bytes;
  }
  if (Number(incoming.headers['content-length'] ?? 0) > limit) throw tooLarge();
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of incoming as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > limit) throw tooLarge();
    chunks.push(chunk);
  }
  return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, total);
}

/** Reads a JSON body strictly: over `limit` is a 413; invalid UTF-8 or malformed JSON a 400 naming the problem. */
export async function readJson(c: Context, limit: number, optional = false): Promise<unknown> {
  const bytes = await readBytes(c, limit);
  if (bytes.byteLength === 0 && optional) return {};
  if (bytes.byteLength === 0) throw BatonError.invalid([{ path: '', message: 'the request body is empty; send a JSON object' }], 'body');
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw BatonError.invalid([{ path: '', message: 'the request body is not valid UTF-8' }], 'body');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw BatonError.invalid([{ path: '', message: `the request body is not valid JSON (${(error as Error).message})` }], 'body');
  }
  if (nestsDeeperThan(value, MAX_JSON_DEPTH)) {
    throw BatonError.invalid(
      [{ path: '', message: `the request body nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep` }],
      'body',
    );
  }
  return value;
}

/** Iterative, so that measuring a hostile body cannot exhaust the stack either. */
function nestsDeeperThan(root: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[root, 0]];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const [value, depth] = item;
    if (typeof value !== 'object' || value === null) continue;
    if (depth >= limit) return true;
    for (const child of Array.isArray(value) ? value : Object.values(value)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}
