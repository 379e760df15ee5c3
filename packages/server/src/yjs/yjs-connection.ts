import type { IncomingMessage } from 'node:http';
import { BatonError, Id, zodIssues } from '@baton/core';
import type { RawData, WebSocket } from 'ws';
import { resolveCaller } from '../http/request-context.js';
import { authorize, type Caller } from '../hub/caller.js';
import type { Hub } from '../hub/hub.js';
import type { Logger } from '../log.js';
import { YJS_CLOSE_CODES, yjsCloseFor } from './close-codes.js';
import type { ContextDoc, DocPeer } from './context-doc.js';

export interface YjsConnectionDeps {
  hub: Hub;
  token: string | undefined;
  acquire(contextId: string): Promise<ContextDoc>;
  release(doc: ContextDoc, peer: DocPeer): void;
  heartbeatMs: number;
  /** Past this many bytes queued for the client, it is disconnected (it resyncs on reconnect). */
  maxBuffered: number;
  log?: Logger | undefined;
}

/** Messages a client may send before its document is loaded. */
const MAX_EARLY_MESSAGES = 64;

/**
 * One WebSocket on /yjs/:contextId. The caller is resolved as for REST (the
 * token may be in the query, since browsers cannot set headers on a
 * WebSocket); reading needs read access to the context, changing it needs
 * write. Refusals close the socket with a 44xx code so a stock client stops
 * retrying (close-codes.ts).
 */
export async function serveYjsSocket(ws: WebSocket, request: IncomingMessage, contextPath: string, deps: YjsConnectionDeps): Promise<void> {
  let contextId: string;
  let caller: Caller;
  try {
    contextId = parseContextId(contextPath);
    const url = new URL(request.url ?? '/', 'http://localhost');
    caller = resolveCaller({ headers: request.headers as Record<string, string | undefined>, query: url.searchParams }, deps.token);
  } catch (error) {
    const { code, reason } = yjsCloseFor(error);
    ws.close(code, reason);
    return;
  }

  const early: Uint8Array[] = [];
  let doc: ContextDoc | null = null;
  let closed = false;
  let alive = true;
  const peer: DocPeer = {
    caller,
    writable: canWrite(caller, contextId),
    send(message) {
      if (ws.readyState !== ws.OPEN) return;
      if (ws.bufferedAmount > deps.maxBuffered) {
        ws.close(YJS_CLOSE_CODES.tryAgainLater, 'the client is not reading fast enough');
        return;
      }
      ws.send(message);
    },
    close(code, reason) {
      ws.close(code, reason);
    },
  };

  const heartbeat = setInterval(() => {
    if (!alive) {
      ws.terminate();
      return;
    }
    alive = false;
    ws.ping();
  }, deps.heartbeatMs);
  ws.on('pong', () => {
    alive = true;
  });
  ws.on('message', (data: RawData) => {
    const bytes = toBytes(data);
    if (doc) doc.receive(peer, bytes);
    else if (early.length < MAX_EARLY_MESSAGES) early.push(bytes);
    else ws.close(YJS_CLOSE_CODES.tryAgainLater, 'too many messages before the document was ready');
  });
  ws.on('close', () => {
    closed = true;
    clearInterval(heartbeat);
    if (doc) deps.release(doc, peer);
  });
  ws.on('error', () => ws.terminate());

  try {
    // Read access to an existing context, or a 44xx close.
    await deps.hub.getContext(contextId, caller);
    const loaded = await deps.acquire(contextId);
    if (closed) {
      deps.release(loaded, peer);
      return;
    }
    doc = loaded;
    loaded.addPeer(peer);
    for (const message of early.splice(0)) loaded.receive(peer, message);
  } catch (error) {
    if (!(error instanceof BatonError)) deps.log?.error({ err: error }, 'opening a Yjs document failed');
    const { code, reason } = yjsCloseFor(error);
    ws.close(code, reason);
  }
}

function parseContextId(path: string): string {
  let raw: string;
  try {
    raw = decodeURIComponent(path);
  } catch {
    raw = path;
  }
  const parsed = Id.safeParse(raw);
  if (!parsed.success) throw BatonError.invalid(zodIssues(parsed.error, ['contextId']), 'Yjs document path');
  return parsed.data;
}

function canWrite(caller: Caller, contextId: string): boolean {
  try {
    authorize(caller, 'write', contextId);
    return true;
  } catch {
    return false;
  }
}

function toBytes(data: RawData): Uint8Array {
  if (Array.isArray(data)) return new Uint8Array(Buffer.concat(data));
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}
