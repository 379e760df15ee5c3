import type { Event } from '@baton/core';
import type { Identity } from '../api/identity.js';
import { type LiveStatus, openLiveFeed } from '../api/live.js';
import type { RestApi } from '../api/rest.js';

export interface TimelineSnapshot {
  /** Every event of the context, in seq order. */
  events: readonly Event[];
  byId: ReadonlyMap<string, Event>;
  status: 'loading' | 'ready' | 'error';
  error: string | null;
  live: LiveStatus;
}

/** The first page is small so the first screen paints early; the rest come in the largest pages the API serves. */
const FIRST_PAGE = 200;
const PAGE = 1000;
/** Concurrent requests while loading (browsers open about six connections per host). */
const MAX_WINDOWS = 6;

/**
 * A context's whole timeline in the browser: loaded page by page over REST
 * (each page shown as it lands), then kept current by the live feed from the
 * last seq loaded. The few projected facts (blocker resolved, note consumed)
 * are applied to their targets when the recording event arrives, as the hub
 * does (hub.ts #project).
 */
export class Timeline {
  #snapshot: TimelineSnapshot = { events: [], byId: new Map(), status: 'loading', error: null, live: 'connecting' };
  #index = new Map<string, number>();
  #listeners = new Set<() => void>();
  #cursor = 0;
  #closeFeed: (() => void) | null = null;
  #abort = new AbortController();

  constructor(
    private readonly api: RestApi,
    private readonly identity: Identity,
    readonly contextId: string,
  ) {}

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  getSnapshot = (): TimelineSnapshot => this.#snapshot;

  async start(): Promise<void> {
    try {
      await this.#loadAll();
      this.#set({ status: 'ready' });
    } catch (error) {
      if (this.#abort.signal.aborted) return;
      this.#set({ status: 'error', error: (error as Error).message });
      return;
    }
    if (this.#abort.signal.aborted) return;
    this.#closeFeed = openLiveFeed({
      identity: this.identity,
      filter: { contextIds: [this.contextId] },
      since: this.#cursor,
      onEvent: (event) => this.#append([event]),
      onStatus: (live) => this.#set({ live }),
      onGap: async (after) => {
        await this.#loadAfter(after);
        return this.#cursor;
      },
    });
  }

  close(): void {
    this.#abort.abort();
    this.#closeFeed?.();
  }

  /** Replaces an event with a newer projection of it (a REST answer to resolve/consume). */
  upsert(event: Event): void {
    const at = this.#index.get(event.id);
    if (at === undefined) {
      this.#append([event]);
      return;
    }
    const events = this.#snapshot.events.slice();
    events[at] = event;
    const byId = new Map(this.#snapshot.byId);
    byId.set(event.id, event);
    this.#set({ events, byId });
  }

  /**
   * The whole timeline. A small first page paints the first screen; the rest
   * is split into seq windows fetched at once (after/before bound each one),
   * so the server works on one page while the browser parses another. Windows
   * are appended in seq order as they complete, the last one open-ended so
   * events written meanwhile are not skipped.
   */
  async #loadAll(): Promise<void> {
    const signal = this.#abort.signal;
    const [context, first] = await Promise.all([
      this.api.getContext(this.contextId),
      this.api.listEvents(this.contextId, { after: 0, limit: FIRST_PAGE }, signal),
    ]);
    this.#append(first.events);
    if (!first.hasMore) return;
    const start = first.nextAfter;
    const remaining = Math.max(1, context.eventCount - first.events.length);
    const count = Math.min(MAX_WINDOWS, Math.ceil(remaining / PAGE));
    const span = Math.max(1, Math.ceil((context.lastSeq - start) / count));
    const windows = Array.from({ length: count }, (_, i) => {
      const after = start + i * span;
      return this.#window(after, i === count - 1 ? undefined : after + span + 1);
    });
    // A failed window surfaces when its turn comes below; until then it must not count as unhandled.
    for (const window of windows) window.catch(() => undefined);
    for (const window of windows) this.#append(await window);
  }

  /** Every event with after < seq < before (before undefined: no upper bound). */
  async #window(after: number, before: number | undefined): Promise<Event[]> {
    const events: Event[] = [];
    for (let cursor = after; ; ) {
      const page = await this.api.listEvents(this.contextId, { after: cursor, before, limit: PAGE }, this.#abort.signal);
      events.push(...page.events);
      if (!page.hasMore || page.events.length === 0) return events;
      cursor = page.nextAfter;
    }
  }

  async #loadAfter(after: number): Promise<void> {
    let cursor = after;
    for (let limit = FIRST_PAGE; ; limit = PAGE) {
      const page = await this.api.listEvents(this.contextId, { after: cursor, limit }, this.#abort.signal);
      this.#append(page.events);
      cursor = Math.max(cursor, page.nextAfter);
      if (!page.hasMore || page.events.length === 0) break;
    }
  }

  #append(incoming: readonly Event[]): void {
    const fresh = incoming.filter((e) => !this.#index.has(e.id));
    if (fresh.length === 0) return;
    const events = this.#snapshot.events.slice();
    const byId = new Map(this.#snapshot.byId);
    for (const event of fresh) {
      this.#index.set(event.id, events.length);
      events.push(event);
      byId.set(event.id, event);
      this.#cursor = Math.max(this.#cursor, event.seq);
    }
    for (const event of fresh) {
      const projected = projectOnto(byId, event);
      if (projected) {
        const at = this.#index.get(projected.id);
        if (at !== undefined) events[at] = projected;
        byId.set(projected.id, projected);
      }
    }
    this.#set({ events, byId });
  }

  #set(patch: Partial<TimelineSnapshot>): void {
    this.#snapshot = { ...this.#snapshot, ...patch };
    for (const listener of this.#listeners) listener();
  }
}

/** The target of a resolve/consume record with the projection applied, or null. */
function projectOnto(byId: ReadonlyMap<string, Event>, record: Event): Event | null {
  const baton = record.metadata.baton;
  if (typeof baton !== 'object' || baton === null || Array.isArray(baton)) return null;
  const { op, target: targetId } = baton as { op?: unknown; target?: unknown };
  if (typeof targetId !== 'string') return null;
  const target = byId.get(targetId);
  if (!target) return null;
  const change = { actor: record.actor, eventId: record.id, at: record.createdAt };
  if (op === 'blocker.resolved' && target.kind === 'activity' && !target.resolved) return { ...target, resolved: true, resolvedBy: change };
  if (op === 'note.consumed' && target.kind === 'note' && !target.consumed) return { ...target, consumed: true, consumedBy: change };
  return null;
}
