import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { Hub } from '../hub/hub.js';
import { newId } from '../hub/ids.js';
import { YjsDocs } from '../hub/yjs-docs.js';
import type { EventTail } from '../live/event-tail.js';
import type { Logger } from '../log.js';
import { ContextDoc, type DocPeer } from './context-doc.js';
import { serveYjsSocket } from './yjs-connection.js';

/** A stock client connects to `${serverUrl}/${room}`: serverUrl `ws://host:port/yjs`, room the context id. */
export const YJS_PATH = '/yjs/';

export interface YjsServerOptions {
  token?: string | undefined;
  /** Activity entries per document (default 1,000; BATON_YJS_WINDOW). */
  window?: number;
  /** Stored updates per document before they are compacted into one (default 100). */
  compactEvery?: number;
  /** How long a document stays loaded after its last peer leaves (default 30 s). */
  idleMs?: number;
  /** How often open documents check for updates other instances stored and for deleted contexts (default 2 s). */
  pollMs?: number;
  heartbeatMs?: number;
  maxPayload?: number;
  log?: Logger;
}

export interface YjsServer {
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): boolean;
  /** The documents loaded on this instance, by context id (for tests and stats). */
  documents(): ReadonlyMap<string, ContextDoc>;
  close(): Promise<void>;
}

interface Slot {
  doc: ContextDoc;
  ready: Promise<ContextDoc>;
  idle: NodeJS.Timeout | null;
}

/**
 * The Yjs bridge (DESIGN §2–3): /yjs/:contextId serves each context's recent
 * activity as a Y.Doc to stock y-websocket clients. Documents load on first
 * connection and follow the log through the instance's EventTail: a new
 * activity event in a context wakes that context's document, which projects
 * it under the store lock (context-doc.ts).
 */
export async function startYjsServer(hub: Hub, tail: EventTail, options: YjsServerOptions = {}): Promise<YjsServer> {
  const docs = new YjsDocs(hub);
  const slots = new Map<string, Slot>();
  const idleMs = options.idleMs ?? 30_000;
  const log = options.log;
  const docOptions = {
    window: options.window ?? 1000,
    compactEvery: options.compactEvery ?? 100,
    newId,
    log,
    onFail: (doc: ContextDoc) => {
      if (slots.get(doc.contextId)?.doc === doc) slots.delete(doc.contextId);
      followTail();
    },
  };

  const acquire = (contextId: string): Promise<ContextDoc> => {
    let slot = slots.get(contextId);
    if (!slot) {
      const doc = new ContextDoc(contextId, docs, hub, docOptions);
      const created: Slot = { doc, ready: doc.load().then(() => doc), idle: null };
      created.ready.catch((error) => doc.fail(error));
      slots.set(contextId, created);
      followTail();
      slot = created;
    }
    if (slot.idle) clearTimeout(slot.idle);
    slot.idle = null;
    return slot.ready;
  };

  const release = (doc: ContextDoc, peer: DocPeer): void => {
    doc.removePeer(peer);
    const slot = slots.get(doc.contextId);
    if (!slot || slot.doc !== doc || doc.peerCount > 0 || slot.idle) return;
    slot.idle = setTimeout(() => {
      if (slots.get(doc.contextId) !== slot || doc.peerCount > 0) return;
      slots.delete(doc.contextId);
      followTail();
      doc.close().catch((error) => log?.warn({ err: error, contextId: doc.contextId }, 'closing an idle Yjs document failed'));
    }, idleMs);
    slot.idle.unref();
  };

  // New activity in a context wakes its document; a ring overrun wakes them all. The bridge
  // watches the tail only while a document is open: with none, appends need not be read back.
  let seen = tail.head;
  let unwatchTail: (() => void) | null = null;
  const followTail = () => {
    if (slots.size > 0 && !unwatchTail) {
      seen = tail.head;
      unwatchTail = tail.watch({
        wake() {
          const contexts =
            seen < tail.floor ? null : new Set(tail.after(seen).flatMap((e) => (e.kind === 'activity' ? [e.contextId] : [])));
          seen = tail.head;
          for (const [contextId, slot] of slots) if (!contexts || contexts.has(contextId)) slot.doc.requestFlush();
        },
      });
    } else if (slots.size === 0 && unwatchTail) {
      unwatchTail();
      unwatchTail = null;
    }
  };

  // Updates other instances stored (peers' edits there) arrive by NOTIFY, or by the poll when one is lost.
  let polling = false;
  const poll = async () => {
    if (polling || slots.size === 0) return;
    polling = true;
    try {
      const heads = await docs.heads([...slots.keys()]);
      for (const [contextId, slot] of slots) {
        const head = heads.get(contextId);
        if (head === undefined) {
          // Deleting a context deletes its stored document: the flush finds the context gone and closes with 4404.
          slot.doc.requestFlush();
        } else if (head > slot.doc.cursor) slot.doc.requestCatchUp();
      }
    } catch (error) {
      log?.warn({ err: error }, 'checking Yjs documents for updates failed');
    } finally {
      polling = false;
    }
  };
  const stopWatching = await docs.watchChanges(() => void poll());
  const pollTimer = setInterval(() => void poll(), options.pollMs ?? 2000);
  pollTimer.unref();

  const wss = new WebSocketServer({ noServer: true, maxPayload: options.maxPayload ?? 16 * 1024 * 1024 });
  const connection = {
    hub,
    token: options.token,
    acquire,
    release,
    heartbeatMs: options.heartbeatMs ?? 30_000,
    maxBuffered: 64 * 1024 * 1024,
    log,
  };

  return {
    handleUpgrade(request, socket, head) {
      const path = new URL(request.url ?? '/', 'http://localhost').pathname;
      if (!path.startsWith(YJS_PATH)) return false;
      wss.handleUpgrade(request, socket, head, (ws) => {
        ws.binaryType = 'nodebuffer';
        void serveYjsSocket(ws, request, path.slice(YJS_PATH.length), connection);
      });
      return true;
    },
    documents: () => new Map([...slots].map(([id, slot]) => [id, slot.doc])),
    async close() {
      unwatchTail?.();
      unwatchTail = null;
      clearInterval(pollTimer);
      await stopWatching();
      for (const client of wss.clients) client.close(1001, 'server shutting down');
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      const open = [...slots.values()];
      slots.clear();
      for (const slot of open) if (slot.idle) clearTimeout(slot.idle);
      await Promise.all(open.map((slot) => slot.ready.then((doc) => doc.close()).catch(() => undefined)));
    },
  };
}
