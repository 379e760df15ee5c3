import {
  BatonError,
  type CapabilityMatch,
  cutToBudget,
  defaultFormat,
  matchCapabilities,
  NewRuntime,
  parseStateKey,
  parseWith,
  type Runtime,
  rankMatches,
  type SharedContext,
  SharedContextQuery,
  type StateEntry,
  StateKey,
  StatePut,
  type Task,
} from '@baton/core';
import { z } from 'zod';
import { gatherSharedContext } from '../handoff/gather.js';
import { authorize, type Caller, viewerKey } from './caller.js';
import type { Hub } from './hub.js';

const ClaimInput = z.strictObject({ runtime: z.string().min(1).max(256), message: z.string().max(100_000).optional() });
const StatePrefix = z.strictObject({
  prefix: z
    .string()
    .regex(/^(user:[^:]+|team|task:[^:]+|thread:[^:]+)$/, 'must be user:<userId>, team, task:<taskId> or thread:<contextId>'),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});
const ACTIVE = new Set(['submitted', 'working', 'input-required', 'auth-required']);

export interface SharedContextResult extends SharedContext {
  runtime: string | null;
}

/**
 * Handoff for the hub (issue 6): the token-budgeted shared context, the
 * runtime registry with capability matching, and scoped state. Every method
 * checks the caller like the rest of the hub.
 */
export class HubHandoff {
  readonly #hub: Hub;
  readonly #now: () => number;

  constructor(hub: Hub, now: () => number) {
    this.#hub = hub;
    this.#now = now;
  }

  get #store() {
    return this.#hub.store;
  }

  async sharedContext(contextId: string, query: unknown, caller: Caller): Promise<SharedContextResult> {
    authorize(caller, 'read', contextId);
    const q = parseWith(SharedContextQuery, query, 'shared context query');
    const context = await this.#store.getContext(contextId);
    if (!context) throw BatonError.notFound('context', contextId);
    const runtime = q.runtime ?? caller.actor.runtime;
    const registered = runtime ? await this.#store.getRuntime(runtime) : undefined;
    const format = q.format ?? registered?.format ?? defaultFormat(runtime);
    const source = await gatherSharedContext(this.#store, context, {
      viewerKey: viewerKey(caller),
      now: this.#now(),
      tokenBudget: q.tokenBudget,
    });
    return { ...cutToBudget(source, format, q.tokenBudget), runtime: runtime ?? null };
  }

  // ── runtimes ────────────────────────────────────────────────────────────

  /** Registers a runtime or replaces its capability matrix. */
  async registerRuntime(input: unknown, caller: Caller): Promise<Runtime> {
    authorize(caller, 'write');
    const data = parseWith(NewRuntime, input, 'runtime');
    const at = new Date(this.#now()).toISOString();
    return this.#store.write(async (tx) => {
      const existing = await this.#store.getRuntime(data.id);
      const runtime: Runtime = {
        id: data.id,
        name: data.name,
        format: data.format ?? defaultFormat(data.id),
        capabilities: data.capabilities,
        registeredAt: existing?.registeredAt ?? at,
        updatedAt: at,
      };
      await tx.putRuntime(runtime);
      return runtime;
    });
  }

  async getRuntime(id: string, caller: Caller): Promise<Runtime> {
    authorize(caller, 'read');
    const runtime = await this.#store.getRuntime(id);
    if (!runtime) throw BatonError.notFound('runtime', id);
    return runtime;
  }

  async listRuntimes(caller: Caller): Promise<Runtime[]> {
    authorize(caller, 'read');
    return this.#store.listRuntimes();
  }

  async deleteRuntime(id: string, caller: Caller): Promise<void> {
    authorize(caller, 'admin');
    const deleted = await this.#store.write((tx) => tx.deleteRuntime(id));
    if (!deleted) throw BatonError.notFound('runtime', id);
  }

  /** The registered runtimes that can take a task, best first (native before via-api), then those that cannot. */
  async matchRuntimes(taskId: string, caller: Caller): Promise<{ task: Task; matches: CapabilityMatch[] }> {
    const task = await this.#hub.getTask(taskId, caller);
    const runtimes = await this.#store.listRuntimes();
    return { task, matches: rankMatches(runtimes.map((r) => matchCapabilities(r, task.requiredCapabilities))) };
  }

  /** Submitted tasks waiting for a runtime with this one's capabilities (in one context, or all readable ones). */
  async runtimeQueue(runtimeId: string, query: { context?: string | undefined }, caller: Caller): Promise<{ tasks: Task[] }> {
    const runtime = await this.getRuntime(runtimeId, caller);
    if (query.context) authorize(caller, 'read', query.context);
    const tasks = await this.#store.listTasks({
      ...(query.context ? { contextId: query.context } : {}),
      states: ['submitted'],
      limit: 1000,
    });
    const readable = tasks.filter((t) => !caller.contextIds || caller.contextIds.has(t.contextId));
    return { tasks: readable.filter((t) => matchCapabilities(runtime, t.requiredCapabilities).capable) };
  }

  /**
   * A runtime takes a task: it moves to `working` with `metadata.runtime` set.
   * A runtime that lacks a required capability cannot: the task stays
   * queued for the runtimes that have it, which the error names.
   */
  async claimTask(taskId: string, input: unknown, caller: Caller): Promise<Task> {
    const { runtime: runtimeId, message } = parseWith(ClaimInput, input, 'claim');
    const task = await this.#hub.getTask(taskId, caller);
    const runtime = await this.#store.getRuntime(runtimeId);
    if (!runtime) throw BatonError.notFound('runtime', runtimeId);
    const match = matchCapabilities(runtime, task.requiredCapabilities);
    if (!match.capable) {
      const { matches } = await this.matchRuntimes(taskId, caller);
      const capable = matches.filter((m) => m.capable).map((m) => m.runtime);
      throw new BatonError(
        'conflict',
        `runtime '${runtimeId}' lacks ${match.missing.join(', ')} needed by task '${taskId}'; it stays queued for ${
          capable.length ? capable.join(', ') : 'a runtime that has them (none registered yet)'
        }`,
        { details: { missing: match.missing, capableRuntimes: capable } },
      );
    }
    if (!ACTIVE.has(task.state)) throw new BatonError('illegal_transition', `task '${taskId}' is ${task.state} and cannot be claimed`);
    return this.#hub.updateTask(
      taskId,
      {
        state: 'working',
        metadata: { ...task.metadata, runtime: runtimeId, viaApi: match.viaApi },
        message: message ?? `claimed by ${runtimeId}`,
      },
      caller,
    );
  }

  // ── scoped state ────────────────────────────────────────────────────────

  async putState(key: string, input: unknown, caller: Caller): Promise<StateEntry> {
    const parsedKey = parseWith(StateKey, key, 'state key');
    const { scope, owner, name } = parseStateKey(parsedKey);
    authorize(caller, 'write', scope === 'thread' ? owner : null);
    const { value } = parseWith(StatePut, input, 'state');
    const entry: StateEntry = {
      key: parsedKey,
      scope,
      owner,
      name,
      value,
      updatedBy: caller.actor,
      updatedAt: new Date(this.#now()).toISOString(),
    };
    const timeline = await this.#timelineOf(scope, owner, caller);
    await this.#store.write((tx) => tx.putState(entry));
    await this.#recordChange(timeline, entry.key, { op: 'set', value }, caller);
    return entry;
  }

  async getState(key: string, caller: Caller): Promise<StateEntry> {
    const parsedKey = parseWith(StateKey, key, 'state key');
    const { scope, owner } = parseStateKey(parsedKey);
    authorize(caller, 'read', scope === 'thread' ? owner : null);
    const entry = await this.#store.getState(parsedKey);
    if (!entry) throw BatonError.notFound('state', parsedKey);
    return entry;
  }

  async listState(query: unknown, caller: Caller): Promise<{ entries: StateEntry[] }> {
    const q = parseWith(StatePrefix, query, 'state query');
    const [scope, owner] = q.prefix.split(':') as [StateEntry['scope'], string | undefined];
    authorize(caller, 'read', scope === 'thread' ? owner : null);
    return { entries: await this.#store.listState({ owners: [{ scope, owner: owner ?? null }], limit: q.limit }) };
  }

  async deleteState(key: string, caller: Caller): Promise<void> {
    const parsedKey = parseWith(StateKey, key, 'state key');
    const { scope, owner } = parseStateKey(parsedKey);
    authorize(caller, 'write', scope === 'thread' ? owner : null);
    const timeline = await this.#timelineOf(scope, owner, caller);
    const deleted = await this.#store.write((tx) => tx.deleteState(parsedKey));
    if (!deleted) throw BatonError.notFound('state', parsedKey);
    await this.#recordChange(timeline, parsedKey, { op: 'delete' }, caller);
  }

  /**
   * State changes are event-sourced onto the timeline they belong to
   * (reference/002, after ADK's state_delta): a `thread:` key's change becomes
   * a `system_event` activity on that context, a `task:` key's on the task's
   * context, so every surface sees who changed what and when. `user:` and
   * `team:` keys belong to no context and are not recorded on one. This finds
   * that context (checking the caller may write to it) before anything is written.
   */
  async #timelineOf(
    scope: StateEntry['scope'],
    owner: string | null,
    caller: Caller,
  ): Promise<{ contextId: string; taskId?: string } | null> {
    if (scope === 'thread' && owner) return (await this.#store.getContext(owner)) ? { contextId: owner } : null;
    if (scope !== 'task' || !owner) return null;
    const task = await this.#store.getTask(owner);
    if (!task) return null;
    authorize(caller, 'write', task.contextId);
    return { contextId: task.contextId, taskId: task.id };
  }

  /** Appends the change to its timeline, through the hub's append path (live feed, Yjs, search see it). */
  async #recordChange(
    timeline: { contextId: string; taskId?: string } | null,
    key: string,
    change: { op: 'set'; value: unknown } | { op: 'delete' },
    caller: Caller,
  ): Promise<void> {
    if (!timeline) return;
    const { contextId, taskId } = timeline;
    const verb = change.op === 'set' ? 'set' : 'deleted';
    await this.#hub.appendEvent(
      contextId,
      {
        kind: 'activity',
        activityType: 'system_event',
        ...(taskId ? { taskId } : {}),
        content: [
          { type: 'text', text: `state ${key} ${verb}` },
          { type: 'data', data: { stateKey: key, ...change } },
        ],
      },
      caller,
    );
  }
}
