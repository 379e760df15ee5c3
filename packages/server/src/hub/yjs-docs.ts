import { type ActivityEvent, BatonError, type Event } from '@baton/core';
import type { YjsDocHead, YjsUpdate } from '../store/store.js';
import type { Hub } from './hub.js';

/** A context's Yjs document while its lock is held (see YjsDocs.withLock). */
export interface LockedYjsDoc {
  readonly head: YjsDocHead;
  save(change: { data: Uint8Array | null; replace: boolean; projectedSeq: number }): Promise<YjsDocHead>;
}

/**
 * What the Yjs bridge reads and writes, kept here so the hub stays the only
 * caller of the store. Access is checked when a peer connects (hub.getContext)
 * and when its entries are appended (hub.appendEvent); these are the
 * system's own reads and writes of the projection.
 */
export class YjsDocs {
  #holders = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(
    private readonly hub: Hub,
    /**
     * Documents holding their lock at once. A holder keeps one pooled
     * connection for its transaction and reads on another, so this must stay
     * below the PostgreSQL pool size (10): holders could otherwise wait on
     * each other for a free connection forever.
     */
    private readonly maxHolders = 3,
  ) {}

  updatesAfter(contextId: string, seq: number): Promise<YjsUpdate[]> {
    return this.hub.store.listYjsUpdates(contextId, seq);
  }

  heads(contextIds: readonly string[]): Promise<Map<string, number>> {
    return this.hub.store.yjsHeads(contextIds);
  }

  /** Pokes after another instance may have stored an update (PostgreSQL NOTIFY). */
  watchChanges(listener: () => void): Promise<() => Promise<void>> {
    return this.hub.store.watchChanges(listener);
  }

  /**
   * Runs `fn` holding the document's lock, in one transaction: instances
   * change a document one at a time, each after reading what the previous
   * one stored. `fn` must not call the hub's writing methods (SQLite has one
   * writer connection, which this transaction holds).
   */
  async withLock<T>(contextId: string, fn: (doc: LockedYjsDoc) => Promise<T>): Promise<T> {
    if (this.#holders < this.maxHolders) this.#holders += 1;
    else await new Promise<void>((resolve) => this.#waiting.push(resolve)); // a finishing holder hands its slot over
    try {
      return await this.#locked(contextId, fn);
    } finally {
      const next = this.#waiting.shift();
      if (next) next();
      else this.#holders -= 1;
    }
  }

  #locked<T>(contextId: string, fn: (doc: LockedYjsDoc) => Promise<T>): Promise<T> {
    return this.hub.store.write(async (tx) => {
      // A deleted context's document must not be stored again (a new context with its id would inherit it).
      if (!(await tx.getContext(contextId))) throw BatonError.notFound('context', contextId);
      const head = await tx.lockYjsDoc(contextId, Date.now());
      return fn({ head, save: (change) => tx.saveYjsDoc(contextId, change, Date.now()) });
    });
  }

  /** The newest `limit` shared activity events after `afterSeq`, oldest first: what the document shows. */
  async recentActivity(contextId: string, afterSeq: number, limit: number): Promise<ActivityEvent[]> {
    const found: ActivityEvent[] = [];
    let before: number | undefined;
    // Private events never enter the shared document; page past them until the window is full.
    while (found.length < limit) {
      const page = await this.hub.store.listEvents({
        contextId,
        kinds: ['activity'],
        viewerKey: null,
        afterSeq,
        ...(before !== undefined ? { beforeSeq: before } : {}),
        order: 'desc',
        limit,
      });
      for (const event of page) if (event.kind === 'activity' && event.visibility === 'shared' && found.length < limit) found.push(event);
      if (page.length < limit) break;
      before = (page.at(-1) as Event).seq;
    }
    return found.reverse();
  }

  /** The stored events among `ids`. */
  async events(ids: readonly string[]): Promise<Map<string, Event>> {
    const found = new Map<string, Event>();
    for (const id of ids) {
      const event = await this.hub.store.getEvent(id);
      if (event) found.set(id, event);
    }
    return found;
  }
}
