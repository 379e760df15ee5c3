import {
  type Actor,
  BatonError,
  type Checkpoint,
  type Context,
  ContextPatch,
  ContextQuery,
  contentText,
  type Event,
  type EventPage,
  EventQuery,
  NewContext,
  parseWith,
  type Task,
} from '@baton/core';
import { privacyKey } from '../store/rows.js';
import type { DeleteCounts, Store, StoredArtifact, StoreWriter } from '../store/store.js';
import { AppendBatcher, type AppendResult } from './append-batcher.js';
import { authorize, type Caller, viewerKey } from './caller.js';
import { HubCheckpoints } from './checkpoints.js';
import { previewEvents } from './content-preview.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import { HubHandoff } from './handoff.js';
import { newId as defaultNewId } from './ids.js';
import { prepareEvents } from './prepare-event.js';
import { HubSearch, type HubSearchOptions } from './search.js';
import { HubTasks } from './tasks.js';

export interface HubOptions {
  now?: () => number;
  newId?: () => string;
  /** Semantic search (an embedding provider) and its tuning; full-text only when absent. */
  search?: HubSearchOptions;
}

export type AppendListener = (events: readonly Event[]) => void;

export type { AppendResult };

/**
 * The domain service. Every surface (REST, MCP, A2A, MAP, Yjs, the UI) calls
 * it; it validates input with the shared schemas, checks access, and is the
 * only caller of the store.
 */
export class Hub {
  readonly store: Store;
  readonly #now: () => number;
  readonly #newId: () => string;
  readonly #listeners = new Set<AppendListener>();
  /** Concurrent appends share a transaction (group commit). */
  readonly #appends: AppendBatcher;
  /** Full-text search (hub/search.ts). */
  readonly search: HubSearch;
  /** Shared context, runtimes and scoped state (hub/handoff.ts). */
  readonly handoff: HubHandoff;
  readonly #tasks: HubTasks;
  readonly #checkpoints: HubCheckpoints;

  constructor(store: Store, options: HubOptions = {}) {
    this.store = store;
    this.#now = options.now ?? Date.now;
    this.#newId = options.newId ?? defaultNewId;
    this.#appends = new AppendBatcher(store, this.#now);
    this.search = new HubSearch(store, options.search);
    this.handoff = new HubHandoff(this, this.#now);
    const deps = { store, now: this.#now, newId: this.#newId, publish: (events: readonly Event[]) => this.#publish(events) };
    this.#tasks = new HubTasks(deps);
    this.#checkpoints = new HubCheckpoints(deps);
  }

  /** Called after each commit with the events it appended, in seq order. */
  onAppend(listener: AppendListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  // ── contexts ────────────────────────────────────────────────────────────

  async createContext(input: unknown, caller: Caller): Promise<Context> {
    const data = parseWith(NewContext, input, 'context');
    const id = data.id ?? this.#newId();
    authorize(caller, 'write', id);
    const at = new Date(this.#now()).toISOString();
    const context: Context = {
      id,
      title: data.title,
      description: data.description,
      owner: data.owner === undefined ? caller.actor : data.owner,
      parentId: data.parentId,
      metadata: data.metadata,
      importedFrom: data.importedFrom,
      eventCount: 0,
      lastSeq: 0,
      createdAt: at,
      updatedAt: at,
    };
    await this.store.write(async (tx) => {
      if (await tx.getContext(id)) throw new BatonError('conflict', `context '${id}' already exists`, { details: { id } });
      if (context.parentId && !(await tx.getContext(context.parentId))) throw BatonError.notFound('parent context', context.parentId);
      await tx.insertContext(context);
    });
    return context;
  }

  async getContext(id: string, caller: Caller): Promise<Context> {
    authorize(caller, 'read', id);
    const context = await this.store.getContext(id);
    if (!context) throw BatonError.notFound('context', id);
    return context;
  }

  async listContexts(query: unknown, caller: Caller): Promise<{ contexts: Context[]; nextCursor: string | null }> {
    authorize(caller, 'read');
    const q = parseWith(ContextQuery, query, 'query');
    const cursor = q.cursor ? decodeCursor(q.cursor) : undefined;
    const rows = await this.store.listContexts({
      ...(q.q ? { q: q.q } : {}),
      ...(q.parentId ? { parentId: q.parentId } : {}),
      ...(cursor ? { before: { updatedAt: cursor.millis, id: cursor.id } } : {}),
      limit: q.limit + 1,
    });
    const visible = caller.contextIds ? rows.filter((c) => caller.contextIds?.has(c.id)) : rows;
    const page = visible.slice(0, q.limit);
    const last = page.at(-1);
    const nextCursor = rows.length > q.limit && last ? encodeCursor(Date.parse(last.updatedAt), last.id) : null;
    return { contexts: page, nextCursor };
  }

  async updateContext(id: string, patch: unknown, caller: Caller): Promise<Context> {
    authorize(caller, 'write', id);
    const changes = parseWith(ContextPatch, patch, 'context patch');
    return this.store.write(async (tx) => {
      const current = await tx.getContext(id);
      if (!current) throw BatonError.notFound('context', id);
      if (changes.parentId) await this.#assertNoCycle(tx, id, changes.parentId);
      const next: Context = { ...current, ...changes, updatedAt: new Date(this.#now()).toISOString() };
      await tx.updateContext(next);
      return next;
    });
  }

  async deleteContext(id: string, caller: Caller): Promise<DeleteCounts> {
    authorize(caller, 'admin', id);
    return this.store.write(async (tx) => {
      if (!(await tx.getContext(id))) throw BatonError.notFound('context', id);
      return tx.deleteContext(id);
    });
  }

  async #assertNoCycle(tx: StoreWriter, id: string, parentId: string): Promise<void> {
    let cursor: string | null = parentId;
    for (let depth = 0; cursor; depth++) {
      if (cursor === id || depth > 1000) {
        throw BatonError.invalid([{ path: 'parentId', message: `would make context '${id}' its own ancestor` }], 'context patch');
      }
      const parent: Context | undefined = await tx.getContext(cursor);
      if (!parent) throw BatonError.notFound('parent context', cursor);
      cursor = parent.parentId;
    }
  }

  // ── events ──────────────────────────────────────────────────────────────

  /** Appends one event; a retry with the same id and body returns the stored event. */
  async appendEvent(contextId: string, input: unknown, caller: Caller): Promise<{ event: Event; created: boolean }> {
    const result = await this.#append(contextId, [input], caller, null);
    return { event: result.events[0] as Event, created: result.created[0] as boolean };
  }

  /** Appends up to 1,000 events in one transaction: all are stored, or none. */
  async appendEvents(contextId: string, inputs: readonly unknown[], caller: Caller): Promise<AppendResult> {
    return this.#append(contextId, inputs, caller, 'events');
  }

  async #append(contextId: string, inputs: readonly unknown[], caller: Caller, path: string | null): Promise<AppendResult> {
    authorize(caller, 'write', contextId);
    const now = this.#now();
    const prepared = prepareEvents(inputs, { contextId, caller, now, newId: this.#newId }, path);
    const result = await this.#appends.append({ contextId, prepared });
    this.#publish(result.events.filter((_, i) => result.created[i]));
    return result;
  }

  #publish(events: readonly Event[]): void {
    if (events.length === 0) return;
    for (const listener of this.#listeners) {
      try {
        listener(events);
      } catch {
        // A failing subscriber must not fail the write that has already committed.
      }
    }
  }

  async getEvent(id: string, caller: Caller): Promise<Event> {
    const event = await this.store.getEvent(id);
    if (!event || !isVisible(event, caller)) throw BatonError.notFound('event', id);
    authorize(caller, 'read', event.contextId);
    return event;
  }

  async listEvents(contextId: string, query: unknown, caller: Caller): Promise<EventPage> {
    authorize(caller, 'read', contextId);
    const q = parseWith(EventQuery, query, 'query');
    if (!(await this.store.getContext(contextId))) throw BatonError.notFound('context', contextId);
    const types = [...(q.activityType ?? []), ...(q.noteType ?? [])];
    const backwards = q.tail !== undefined || (q.before !== undefined && q.after === undefined);
    const size = q.tail ?? q.limit;
    const rows = await this.store.listEvents({
      contextId,
      ...(q.kind ? { kinds: q.kind } : {}),
      ...(types.length ? { types } : {}),
      ...(q.phase ? { phases: q.phase } : {}),
      ...(q.direction ? { direction: q.direction } : {}),
      ...(q.actor ? { actorIds: q.actor } : {}),
      ...(q.taskId ? { taskId: q.taskId } : {}),
      ...(q.stepId ? { stepId: q.stepId } : {}),
      ...(q.after !== undefined ? { afterSeq: q.after } : {}),
      ...(q.before !== undefined ? { beforeSeq: q.before } : {}),
      ...(q.since ? { sinceMs: Date.parse(q.since) } : {}),
      ...(q.until ? { untilMs: Date.parse(q.until) } : {}),
      viewerKey: viewerKey(caller),
      order: backwards ? 'desc' : 'asc',
      limit: size + 1,
    });
    const hasMore = rows.length > size;
    const events = rows.slice(0, size);
    if (backwards) events.reverse();
    const page = {
      events,
      nextAfter: events.at(-1)?.seq ?? q.after ?? 0,
      prevBefore: events[0]?.seq ?? null,
      hasMore,
    };
    return q.preview === undefined ? page : { ...page, ...previewEvents(events, q.preview) };
  }

  // ── projections: blockers and notes ─────────────────────────────────────

  /** Marks a blocker resolved, recorded as an event that references it. */
  async resolveBlocker(id: string, input: { message?: string | undefined; actor?: Actor | undefined }, caller: Caller) {
    return this.#project(id, caller, input, {
      verb: 'resolve',
      applies: (e) => e.kind === 'activity' && e.activityType === 'blocker',
      done: (e) => e.kind === 'activity' && e.resolved,
      op: 'blocker.resolved',
      text: (e) => `Resolved blocker: ${preview(e)}`,
      projection: (record) => ({ resolved: true, resolvedBy: record }),
    });
  }

  /** Marks a note consumed (acted upon), recorded as an event that references it. */
  async consumeNote(id: string, input: { message?: string | undefined; actor?: Actor | undefined }, caller: Caller) {
    return this.#project(id, caller, input, {
      verb: 'consume',
      applies: (e) => e.kind === 'note',
      done: (e) => e.kind === 'note' && e.consumed,
      op: 'note.consumed',
      text: (e) => `Consumed note: ${e.kind === 'note' ? e.title : preview(e)}`,
      projection: (record) => ({ consumed: true, consumedBy: record }),
    });
  }

  async #project(
    id: string,
    caller: Caller,
    input: { message?: string | undefined; actor?: Actor | undefined },
    how: {
      verb: string;
      applies: (e: Event) => boolean;
      done: (e: Event) => boolean;
      op: string;
      text: (e: Event) => string;
      projection: (record: { actor: Actor; eventId: string; at: string }) => object;
    },
  ): Promise<{ target: Event; record: Event }> {
    const now = this.#now();
    const actor = input.actor ?? caller.actor;
    const result = await this.store.write(async (tx) => {
      const target = await tx.getEvent(id);
      if (!target || !isVisible(target, caller)) throw BatonError.notFound('event', id);
      authorize(caller, 'write', target.contextId);
      if (!how.applies(target)) {
        throw BatonError.invalid([
          {
            path: 'id',
            message: `event '${id}' is a ${describe(target)}; only ${how.verb === 'resolve' ? 'blockers' : 'notes'} can be ${how.verb}d`,
          },
        ]);
      }
      if (how.done(target)) throw new BatonError('conflict', `event '${id}' was already ${how.verb}d`, { details: { id } });
      const text = how.text(target) + (input.message ? `\n\n${input.message}` : '');
      const [record] = await tx.appendEvents(
        [
          {
            id: this.#newId(),
            contextId: target.contextId,
            taskId: target.taskId,
            parentId: target.id,
            refs: [target.id],
            actor,
            source: 'local',
            content: [{ type: 'text', text }],
            metadata: { baton: { op: how.op, target: target.id } },
            extensions: [],
            visibility: target.visibility,
            kind: 'activity',
            activityType: 'system_event',
          },
        ],
        now,
      );
      if (!record) throw new BatonError('internal', 'append returned no event');
      const projection = how.projection({ actor, eventId: record.id, at: record.createdAt });
      await tx.setProjection(target.id, projection);
      return { target: { ...target, ...projection } as Event, record };
    });
    this.#publish([result.record]);
    return result;
  }

  // ── tasks (hub/tasks.ts) ────────────────────────────────────────────────

  createTask(contextId: string, input: unknown, caller: Caller): Promise<Task> {
    return this.#tasks.create(contextId, input, caller);
  }

  getTask(id: string, caller: Caller): Promise<Task> {
    return this.#tasks.get(id, caller);
  }

  listTasks(contextId: string, query: unknown, caller: Caller): Promise<{ tasks: Task[]; nextCursor: string | null }> {
    return this.#tasks.list(contextId, query, caller);
  }

  /** Changes a task; a state change must be legal and is recorded on the timeline. */
  updateTask(id: string, patch: unknown, caller: Caller): Promise<Task> {
    return this.#tasks.update(id, patch, caller);
  }

  // ── checkpoints (hub/checkpoints.ts) ────────────────────────────────────

  createCheckpoint(input: unknown, caller: Caller): Promise<Checkpoint> {
    return this.#checkpoints.create(input, caller);
  }

  getCheckpoint(id: string, caller: Caller): Promise<Checkpoint> {
    return this.#checkpoints.get(id, caller);
  }

  listCheckpoints(contextId: string, caller: Caller, limit = 100): Promise<Checkpoint[]> {
    return this.#checkpoints.list(contextId, caller, limit);
  }

  readCheckpointArtifact(id: string, name: string, caller: Caller): Promise<StoredArtifact> {
    return this.#checkpoints.readArtifact(id, name, caller);
  }
}

function isVisible(event: Event, caller: Caller): boolean {
  return event.visibility === 'shared' || viewerKey(caller) === privacyKey(event.actor);
}

function describe(event: Event): string {
  return event.kind === 'activity' ? `${event.activityType} activity` : event.kind === 'note' ? `${event.noteType} note` : 'turn';
}

function preview(event: Event): string {
  const text = contentText(event.content).trim();
  return text.length > 200 ? `${text.slice(0, 200)}…` : text || event.id;
}
