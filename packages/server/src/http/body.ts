import { BatonError } from '@baton/core';
import type { Context } from 'hono';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Reads a JSON body strictly: invalid UTF-8 or malformed JSON is a 400 naming the problem. */
export async function readJson(c: Context, optional = false): Promise<unknown> {
  const bytes = new Uint8Array(await c.req.arrayBuffer());
  if (bytes.byteLength === 0 && optional) return {};
  if (bytes.byteLength === 0) throw BatonError.invalid([{ path: '', message: 'the request body is empty; send a JSON object' }], 'body');
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw BatonError.invalid([{ path: '', message: 'the request body is not valid UTF-8' }], 'body');
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw BatonError.invalid([{ path: '', message: `the request body is not valid JSON (${(error as Error).message})` }], 'body');
  }
}
