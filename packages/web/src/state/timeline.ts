import type { Context, Event, EventPage } from '@baton/core';
import type { Identity } from '../api/identity.js';
import { type LiveStatus, openLiveFeed } from '../api/live.js';
import type { RestApi } from '../api/rest.js';

/** An event listed with its content cut to a preview, and the full content's size. */
export type ContentCut = NonNullable<EventPage['cut']>[number];

export interface TimelineSnapshot {
  /** Every event of the context, in seq order; those in `cut` with their content cut to PREVIEW_CHARS. */
  events: readonly Event[];
  byId: ReadonlyMap<string, Event>;
  /** Events whose content is a preview, by id; `Timeline.full` loads one whole. */
  cut: ReadonlyMap<string, ContentCut>;
  status: 'loading' | 'ready' | 'error';
  error: string | null;
  live: LiveStatus;
}

/** The first page is small so the first screen paints early; the rest come in the largest pages the API serves. */
const FIRST_PAGE = 200;
const PAGE = 1000;
/** The rest is loaded in at most this many seq windows of about a page each, */
const MAX_WINDOWS = 64;
/** this many at a time. */
const IN_FLIGHT = 3;
/** While loading, views re-render for new events at most this often. */
const LOADING_RENDER_MS = 120;
/**
 * Events are listed with content cut to this many characters (the most a
 * list shows of one: turns.ts `truncateBlocks`), so a 5 MB turn costs a few
 * kilobytes until it is shown or copied in full.
 */
export const PREVIEW_CHARS = 8000;

/**
 * A context's whole timeline in the browser: loaded page by page over REST
 * (each page shown as it lands), then kept current by the live feed from the
 * last seq loaded. The few projected facts (blocker resolved, note consumed)
 * are applied to their targets when the recording event arrives, as the hub
 * does (hub.ts #project).
 */
export class Timeline {
  #snapshot: TimelineSnapshot = { events: [], byId: new Map(), cut: new Map(), status: 'loading', error: null, live: 'connecting' };
  #loadingFull = new Map<string, Promise<Event>>();
  #index = new Map<string, number>();
  #listeners = new Set<() => void>();
  #cursor = 0;
  #closeFeed: (() => void) | null = null;
  #abort = new AbortController();
  #started = false;
  #announced = Number.NEGATIVE_INFINITY;
  #pending: ReturnType<typeof setTimeout> | null = null;
  #context: Promise<Context> | null = null;

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

  /** The context itself (GET /contexts/:id), asked once and shared with the view. */
  context(): Promise<Context> {
    this.#context ??= this.api.getContext(this.contextId);
    return this.#context;
  }

  /** Whether this timeline serves `contextId` for `identity` and is still open. */
  fits(contextId: string, identity: Identity): boolean {
    const mine = this.identity;
    return (
      !this.#abort.signal.aborted &&
      this.contextId === contextId &&
      mine.id === identity.id &&
      mine.name === identity.name &&
      mine.token === identity.token
    );
  }

  /** Loads the timeline and then follows the live feed; once, however often it is called. */
  async start(): Promise<void> {
    if (this.#started) return;
    this.#started = true;
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
    if (this.#pending !== null) clearTimeout(this.#pending);
    this.#abort.abort();
    this.#closeFeed?.();
  }

  /** Replaces an event with a newer projection of it, whole (a REST answer to resolve/consume, or `full`). */
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
    let cut = this.#snapshot.cut;
    if (cut.has(event.id)) {
      const rest = new Map(cut);
      rest.delete(event.id);
      cut = rest;
    }
    this.#set({ events, byId, cut });
  }

  /**
   * An event with its whole content: as loaded when it was not cut, else
   * fetched (GET /events/:id) and put in place of its preview.
   */
  full(id: string): Promise<Event> {
    const event = this.#snapshot.byId.get(id);
    if (event && !this.#snapshot.cut.has(id)) return Promise.resolve(event);
    let loading = this.#loadingFull.get(id);
    if (!loading) {
      loading = this.api.getEvent(id, this.#abort.signal).then(
        (whole) => {
          this.#loadingFull.delete(id);
          const current = this.#snapshot.byId.get(id);
          if (!current) return whole;
          if (!this.#snapshot.cut.has(id)) return current;
          // The loaded event may carry a newer projection (resolved, consumed) than GET returned: keep it, take the content.
          const merged = { ...current, content: whole.content } as Event;
          this.upsert(merged);
          return merged;
        },
        (error: unknown) => {
          this.#loadingFull.delete(id);
          throw error;
        },
      );
      this.#loadingFull.set(id, loading);
    }
    return loading;
  }

  /**
   * The whole timeline, split into seq windows of about a page each
   * (after/before bound each one; the last is open-ended, so events written
   * meanwhile are not skipped), a few fetched at a time: the server works on
   * one while the browser parses another. The first window starts with a
   * small page, asked for together with the context and shown as soon as it
   * lands, so the first screen paints early. Windows are appended in seq
   * order as they complete (any that finished early together with the one
   * they waited for).
   */
  async #loadAll(): Promise<void> {
    const first = this.api.listEvents(this.contextId, { after: 0, limit: FIRST_PAGE, preview: PREVIEW_CHARS }, this.#abort.signal);
    // A failure surfaces through the first window below; until then it must not count as unhandled.
    first.catch(() => undefined);
    const context = await this.context();
    const count = Math.max(1, Math.min(MAX_WINDOWS, Math.ceil(context.eventCount / PAGE)));
    // Seqs are the store's, shared by every context: this one's are at least eventCount apart,
    // so its first is at most lastSeq - eventCount + 1. The windows split the range from there
    // (the first also reaching back to the start, for events interleaved with other contexts').
    const start = Math.max(0, context.lastSeq - context.eventCount);
    const span = Math.max(1, Math.ceil((context.lastSeq - start) / count));
    const bounds = Array.from({ length: count }, (_, i) => ({
      after: i === 0 ? 0 : start + i * span,
      before: i === count - 1 ? undefined : start + (i + 1) * span + 1,
    }));
    // A few requests at a time, in seq order: the server (one thread) then answers them one after
    // another rather than all at once at the end, and the browser parses each while it works on the next.
    const done: (EventPage[] | undefined)[] = [];
    let asked = 0;
    let appended = 0;
    let failed = false;
    await new Promise<void>((resolve, reject) => {
      const ask = () => {
        const i = asked++;
        const range = bounds[i];
        if (!range || failed) return;
        (i === 0 ? this.#firstWindow(first, range.before) : this.#window(range.after, range.before)).then(
          (pages) => {
            // The next request first, so the server is not idle while this page is shown.
            ask();
            done[i] = pages;
            const ready: EventPage[] = [];
            for (let got = done[appended]; got; got = done[appended]) {
              ready.push(...got);
              done[appended++] = undefined;
            }
            if (ready.length > 0) {
              this.#append(
                ready.flatMap((p) => p.events),
                ready.flatMap((p) => p.cut ?? []),
              );
            }
            if (appended === count) resolve();
          },
          (error: unknown) => {
            failed = true;
            reject(error);
          },
        );
      };
      for (let k = 0; k < IN_FLIGHT; k++) ask();
    });
  }

  /** The first window: its first page, appended at once, then the rest of it. */
  async #firstWindow(first: Promise<EventPage>, before: number | undefined): Promise<EventPage[]> {
    const page = await first;
    this.#append(page.events, page.cut);
    if (!page.hasMore || page.events.length === 0) return [];
    return this.#window(page.nextAfter, before);
  }

  /** The pages of every event with after < seq < before (before undefined: no upper bound). */
  async #window(after: number, before: number | undefined): Promise<EventPage[]> {
    const pages: EventPage[] = [];
    for (let cursor = after; ; ) {
      const page = await this.api.listEvents(
        this.contextId,
        { after: cursor, before, limit: PAGE, preview: PREVIEW_CHARS },
        this.#abort.signal,
      );
      pages.push(page);
      if (!page.hasMore || page.events.length === 0) return pages;
      cursor = page.nextAfter;
    }
  }

  async #loadAfter(after: number): Promise<void> {
    let cursor = after;
    for (let limit = FIRST_PAGE; ; limit = PAGE) {
      const page = await this.api.listEvents(this.contextId, { after: cursor, limit, preview: PREVIEW_CHARS }, this.#abort.signal);
      this.#append(page.events, page.cut);
      cursor = Math.max(cursor, page.nextAfter);
      if (!page.hasMore || page.events.length === 0) break;
    }
  }

  #append(incoming: readonly Event[], cuts: readonly ContentCut[] = []): void {
    const fresh = incoming.filter((e) => !this.#index.has(e.id));
    if (fresh.length === 0) return;
    const events = this.#snapshot.events.slice();
    const byId = new Map(this.#snapshot.byId);
    let cut = this.#snapshot.cut;
    if (cuts.length > 0) {
      const ids = new Set(fresh.map((e) => e.id));
      const more = new Map(cut);
      for (const c of cuts) if (ids.has(c.id)) more.set(c.id, c);
      cut = more;
    }
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
    this.#set({ events, byId, cut }, true);
  }

  /**
   * A new snapshot, announced to the views at once; while the timeline is
   * loading, appends are announced at most every LOADING_RENDER_MS (each
   * re-renders lists of thousands of rows), the last one when loading ends.
   */
  #set(patch: Partial<TimelineSnapshot>, throttle = false): void {
    this.#snapshot = { ...this.#snapshot, ...patch };
    const now = performance.now();
    if (throttle && this.#snapshot.status === 'loading' && now - this.#announced < LOADING_RENDER_MS) {
      this.#pending ??= setTimeout(() => this.#announce(), this.#announced + LOADING_RENDER_MS - now);
      return;
    }
    this.#announce();
  }

  #announce(): void {
    if (this.#pending !== null) clearTimeout(this.#pending);
    this.#pending = null;
    this.#announced = performance.now();
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
