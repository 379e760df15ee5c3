import { ACTIVITY_ARRAY, type ActivityEvent, BatonError } from '@baton/core';
import { Awareness, removeAwarenessStates } from 'y-protocols/awareness';
import * as Y from 'yjs';
import type { Caller } from '../hub/caller.js';
import type { Hub } from '../hub/hub.js';
import type { YjsDocs } from '../hub/yjs-docs.js';
import type { Logger } from '../log.js';
import { type Accepted, ActivityMirror } from './activity-mirror.js';
import { yjsCloseFor } from './close-codes.js';
import { awarenessMessage, handleMessage, syncStep1Message, updateMessage } from './protocol.js';

/** One connected Yjs client, as the document sees it. */
export interface DocPeer {
  readonly caller: Caller;
  /** Read-only peers (no write scope) receive the document; their changes are dropped. */
  readonly writable: boolean;
  send(message: Uint8Array): void;
  close(code: number, reason: string): void;
}

export interface ContextDocOptions {
  /** Most activity entries the document holds (DESIGN §3: 1,000 by default). */
  window: number;
  /** Stored updates after which the next save writes one snapshot instead (compaction). */
  compactEvery: number;
  newId: () => string;
  log?: Logger | undefined;
  /** The document broke (its store failed mid-change): drop it; peers reconnect to a fresh one. */
  onFail: (doc: ContextDoc) => void;
}

/** Events projected per flush at most. */
const PROJECT_BATCH = 250;

/** Transaction origins: applied from the store (already stored), or made by this server. */
const FROM_STORE = Symbol('baton:store');
const FROM_SERVER = Symbol('baton:server');

/**
 * A context's Y.Doc on this instance: loaded from the stored updates on first
 * connection, kept in step with the log (via the ActivityMirror) and with the
 * other instances (via the stored updates), serving its peers the y-websocket
 * protocol. Every store operation runs on one chain, one at a time.
 */
export class ContextDoc {
  readonly doc = new Y.Doc();
  readonly awareness = new Awareness(this.doc);
  /** Each peer's awareness client ids, and whether it has had the document (its sync step 2). */
  readonly #peers = new Map<DocPeer, { controlled: Set<number>; synced: boolean }>();
  readonly #mirror: ActivityMirror;
  /** The seq of the last stored update this document holds. */
  #cursor = 0;
  /** Changes not stored yet (peers' and this server's). */
  #pending: Uint8Array[] = [];
  #inflight: Accepted[] = [];
  /** Events read from the log but not projected yet (a big gap is projected a batch per flush), oldest first. */
  #backlog: ActivityEvent[] = [];
  #chain: Promise<void> = Promise.resolve();
  #flushQueued = false;
  #closed = false;

  constructor(
    readonly contextId: string,
    private readonly docs: YjsDocs,
    private readonly hub: Hub,
    private readonly options: ContextDocOptions,
  ) {
    this.awareness.setLocalState(null);
    const array = this.doc.getArray<unknown>(ACTIVITY_ARRAY);
    this.#mirror = new ActivityMirror(array, contextId, options.window, options.newId, (reason, entry) =>
      options.log?.info({ contextId, reason, entry }, 'removed an activity entry a Yjs peer added'),
    );
    array.observeDeep((events, transaction) => {
      const origin = transaction.origin as DocPeer;
      if (this.#peers.has(origin)) this.#mirror.observe(events, origin.caller);
    });
    this.doc.on('update', (update: Uint8Array, origin: unknown) => {
      if (origin !== FROM_STORE) this.#pending.push(update);
      const message = updateMessage(update);
      // A peer gets updates once it has the document they build on; before, they would wait in its pending structs.
      for (const [peer, state] of this.#peers) if (peer !== origin && state.synced) peer.send(message);
      if (this.#peers.has(origin as DocPeer)) this.requestFlush();
    });
    this.awareness.on('update', ({ added, updated, removed }: AwarenessChange, origin: unknown) => {
      const controlled = this.#peers.get(origin as DocPeer)?.controlled;
      for (const id of added) controlled?.add(id);
      for (const id of removed) controlled?.delete(id);
      const message = awarenessMessage(this.awareness, [...added, ...updated, ...removed]);
      for (const peer of this.#peers.keys()) peer.send(message);
    });
  }

  get cursor(): number {
    return this.#cursor;
  }

  get peerCount(): number {
    return this.#peers.size;
  }

  /** Reads the stored document and brings it up to date with the log. */
  load(): Promise<void> {
    return this.#run(async () => {
      const rows = await this.docs.updatesAfter(this.contextId, 0);
      if (rows.length > 0) Y.applyUpdate(this.doc, Y.mergeUpdates(rows.map((row) => row.data)), FROM_STORE);
      this.#cursor = rows.at(-1)?.seq ?? 0;
      this.#inflight.push(...this.#mirror.recover());
      await this.#flush();
      await this.#appendAccepted();
    });
  }

  addPeer(peer: DocPeer): void {
    this.#peers.set(peer, { controlled: new Set(), synced: false });
    peer.send(syncStep1Message(this.doc));
    const states = [...this.awareness.getStates().keys()];
    if (states.length > 0) peer.send(awarenessMessage(this.awareness, states));
  }

  removePeer(peer: DocPeer): void {
    const controlled = this.#peers.get(peer)?.controlled;
    this.#peers.delete(peer);
    if (controlled?.size) removeAwarenessStates(this.awareness, [...controlled], null);
  }

  receive(peer: DocPeer, message: Uint8Array): void {
    try {
      const { reply, answeredStep1 } = handleMessage(message, {
        doc: this.doc,
        awareness: this.awareness,
        origin: peer,
        writable: peer.writable,
      });
      if (reply) peer.send(reply);
      // The step 2 just sent holds everything so far; updates from now on apply on top of it.
      const state = this.#peers.get(peer);
      if (answeredStep1 && state) state.synced = true;
    } catch (error) {
      this.options.log?.debug({ err: error, contextId: this.contextId }, 'closing a Yjs peer that sent a malformed message');
      peer.close(1007, 'malformed y-websocket message');
    }
  }

  /** Store pending changes and project new events; coalesces requests made while one is queued. */
  requestFlush(): void {
    if (this.#flushQueued || this.#closed) return;
    this.#flushQueued = true;
    void this.#run(async () => {
      this.#flushQueued = false;
      await this.#flush();
      await this.#appendAccepted();
    }).catch((error) => this.fail(error));
  }

  /** Another instance stored an update: read it (peers receive it as an update). */
  requestCatchUp(): void {
    if (this.#closed) return;
    void this.#run(() => this.#catchUp()).catch((error) => this.fail(error));
  }

  #run(task: () => Promise<void>): Promise<void> {
    const next = this.#chain.then(() => (this.#closed ? undefined : task()));
    this.#chain = next.catch(() => undefined);
    return next;
  }

  async #catchUp(): Promise<void> {
    const rows = await this.docs.updatesAfter(this.contextId, this.#cursor);
    const last = rows.at(-1);
    if (!last) return;
    Y.applyUpdate(this.doc, rows.length === 1 ? last.data : Y.mergeUpdates(rows.map((row) => row.data)), FROM_STORE);
    this.#cursor = last.seq;
  }

  /**
   * Under the document's store lock: read every update stored by others,
   * change the document (settle peers' proposals, project new events, trim),
   * and store all pending changes as one update (or one snapshot every
   * `compactEvery` updates, which also drops garbage-collected content).
   */
  async #flush(): Promise<void> {
    const accepted = await this.docs.withLock(this.contextId, async (locked) => {
      await this.#catchUp();
      const events = await this.#nextEvents(locked.head.projectedSeq);
      const repairIds = this.#mirror.takeRepairs();
      const repaired = repairIds.length > 0 ? await this.docs.events(repairIds) : new Map();
      let accepted: Accepted[] = [];
      // Synchronous from here to taking #pending: what is decided is what gets stored.
      this.doc.transact(() => {
        accepted = this.#mirror.apply(events, repairIds, repaired);
      }, FROM_SERVER);
      const projectedSeq = Math.max(locked.head.projectedSeq, events.at(-1)?.seq ?? 0);
      const updates = this.#pending;
      this.#pending = [];
      if (updates.length === 0 && projectedSeq === locked.head.projectedSeq) return accepted;
      const replace = updates.length > 0 && locked.head.head - locked.head.base >= this.options.compactEvery;
      const data = updates.length === 0 ? null : replace ? Y.encodeStateAsUpdate(this.doc) : Y.mergeUpdates(updates);
      const head = await locked.save({ data, replace, projectedSeq });
      this.#cursor = head.head;
      return accepted;
    });
    this.#inflight.push(...accepted);
    if (this.#backlog.length > 0) this.requestFlush();
  }

  /**
   * The next events to project: the oldest PROJECT_BATCH of the newest
   * `window` shared activity events after the stored projection point. A
   * flush holds the store lock (on SQLite, the one writer), so a document
   * catching up on thousands of events does it in short steps, not one long one.
   */
  async #nextEvents(projectedSeq: number): Promise<ActivityEvent[]> {
    // Another instance may have projected part of what was read.
    let backlog = this.#backlog.filter((event) => event.seq > projectedSeq);
    const after = Math.max(projectedSeq, backlog.at(-1)?.seq ?? 0);
    backlog = [...backlog, ...(await this.docs.recentActivity(this.contextId, after, this.options.window))];
    if (backlog.length > this.options.window) backlog = backlog.slice(-this.options.window);
    this.#backlog = backlog.slice(PROJECT_BATCH);
    return backlog.slice(0, PROJECT_BATCH);
  }

  /** Appends accepted entries, now that their ids are stored in the document (see ActivityMirror). */
  async #appendAccepted(): Promise<void> {
    const batch = this.#inflight.splice(0);
    let retry = false;
    for (const item of batch) {
      try {
        await this.hub.appendEvent(this.contextId, item.input, item.caller);
        this.#mirror.repair(item.id);
      } catch (error) {
        if (error instanceof BatonError && error.code !== 'internal' && error.code !== 'unavailable') {
          this.options.log?.info(
            { contextId: this.contextId, reason: error.message },
            'the hub refused an activity entry a Yjs peer added',
          );
          this.#mirror.reject(item.entry);
        } else {
          this.options.log?.warn({ err: error, contextId: this.contextId }, 'appending an activity entry from a Yjs peer failed; retrying');
          this.#inflight.push(item);
          retry = true;
        }
      }
    }
    if (this.#mirror.hasWork) this.requestFlush();
    if (retry) setTimeout(() => this.requestFlush(), 1000).unref();
  }

  /** Drops the document after a failure: peers are closed and reconnect to a fresh copy. */
  fail(error: unknown): void {
    if (this.#closed) return;
    if (error instanceof BatonError) this.options.log?.info({ contextId: this.contextId, reason: error.message }, 'closing a Yjs document');
    else this.options.log?.error({ err: error, contextId: this.contextId }, 'a Yjs document failed; its peers reconnect to a fresh copy');
    this.#closed = true;
    // A deleted context closes its peers with 4404; any other failure with 1011, and they reconnect.
    const { code, reason } = yjsCloseFor(error);
    for (const peer of [...this.#peers.keys()]) peer.close(code, reason);
    this.options.onFail(this);
    this.#destroy();
  }

  /** Stores what is pending, then drops the document from memory. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.requestFlush();
    await this.#chain;
    this.#closed = true;
    this.#destroy();
  }

  #destroy(): void {
    this.awareness.destroy();
    this.doc.destroy();
  }
}

interface AwarenessChange {
  added: number[];
  updated: number[];
  removed: number[];
}
