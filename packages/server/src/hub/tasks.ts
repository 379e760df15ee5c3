import { type Actor, assertTransition, BatonError, type Event, NewTask, parseWith, type Task, TaskPatch, TaskQuery } from '@baton/core';
import type { StoreWriter } from '../store/store.js';
import { authorize, type Caller } from './caller.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import type { HubDeps } from './deps.js';

/** Task operations behind `hub.createTask` and friends; every state change is recorded on the timeline. */
export class HubTasks {
  readonly #deps: HubDeps;

  constructor(deps: HubDeps) {
    this.#deps = deps;
  }

  async create(contextId: string, input: unknown, caller: Caller): Promise<Task> {
    authorize(caller, 'write', contextId);
    const data = parseWith(NewTask, input, 'task');
    const now = this.#deps.now();
    const at = new Date(now).toISOString();
    const task: Task = { ...data, id: data.id ?? this.#deps.newId(), contextId, createdAt: at, updatedAt: at };
    const record = await this.#deps.store.write(async (tx) => {
      if (!(await tx.getContext(contextId))) throw BatonError.notFound('context', contextId);
      if (await tx.getTask(task.id)) throw new BatonError('conflict', `task '${task.id}' already exists`, { details: { id: task.id } });
      if (task.parentTaskId) {
        const parent = await tx.getTask(task.parentTaskId);
        if (!parent) throw BatonError.notFound('parent task', task.parentTaskId);
      }
      await tx.insertTask(task);
      return this.#taskEvent(tx, task, caller.actor, now, `Task created: ${task.title || task.id} (${task.state})`, {
        op: 'task.created',
        state: task.state,
      });
    });
    this.#deps.publish(record);
    return task;
  }

  async get(id: string, caller: Caller): Promise<Task> {
    const task = await this.#deps.store.getTask(id);
    if (!task) throw BatonError.notFound('task', id);
    authorize(caller, 'read', task.contextId);
    return task;
  }

  async list(contextId: string, query: unknown, caller: Caller): Promise<{ tasks: Task[]; nextCursor: string | null }> {
    authorize(caller, 'read', contextId);
    const q = parseWith(TaskQuery, query, 'query');
    if (!(await this.#deps.store.getContext(contextId))) throw BatonError.notFound('context', contextId);
    const cursor = q.cursor ? decodeCursor(q.cursor) : undefined;
    const rows = await this.#deps.store.listTasks({
      contextId,
      ...(q.state ? { states: q.state } : {}),
      ...(q.parentTaskId ? { parentTaskId: q.parentTaskId } : {}),
      ...(cursor ? { after: { createdAt: cursor.millis, id: cursor.id } } : {}),
      limit: q.limit + 1,
    });
    const tasks = rows.slice(0, q.limit);
    const last = tasks.at(-1);
    return { tasks, nextCursor: rows.length > q.limit && last ? encodeCursor(Date.parse(last.createdAt), last.id) : null };
  }

  /** Changes a task; a state change must be legal and is recorded on the timeline. */
  async update(id: string, patch: unknown, caller: Caller): Promise<Task> {
    const changes = parseWith(TaskPatch, patch, 'task patch');
    const now = this.#deps.now();
    const { task, records } = await this.#deps.store.write(async (tx) => {
      const current = await tx.getTask(id);
      if (!current) throw BatonError.notFound('task', id);
      authorize(caller, 'write', current.contextId);
      const stateChange = changes.state !== undefined && changes.state !== current.state;
      if (stateChange && changes.state) assertTransition(id, current.state, changes.state);
      const artifacts = [...current.artifacts];
      for (const artifact of changes.artifacts ?? []) {
        const at = artifacts.findIndex((a) => a.id === artifact.id);
        if (at >= 0) artifacts[at] = artifact;
        else artifacts.push(artifact);
      }
      const next: Task = {
        ...current,
        ...(changes.title !== undefined ? { title: changes.title } : {}),
        ...(changes.description !== undefined ? { description: changes.description } : {}),
        ...(changes.metadata !== undefined ? { metadata: changes.metadata } : {}),
        state: changes.state ?? current.state,
        artifacts,
        updatedAt: new Date(now).toISOString(),
      };
      await tx.updateTask(next);
      const label = next.title || next.id;
      const records = stateChange
        ? await this.#taskEvent(
            tx,
            next,
            caller.actor,
            now,
            `Task ${label}: ${current.state} → ${next.state}${changes.message ? `\n\n${changes.message}` : ''}`,
            { op: 'task.state', from: current.state, to: next.state },
          )
        : [];
      return { task: next, records };
    });
    this.#deps.publish(records);
    return task;
  }

  #taskEvent(tx: StoreWriter, task: Task, actor: Actor, now: number, text: string, data: Record<string, string>): Promise<Event[]> {
    return tx.appendEvents(
      [
        {
          id: this.#deps.newId(),
          contextId: task.contextId,
          taskId: task.id,
          parentId: null,
          refs: [],
          actor,
          source: 'local',
          content: [{ type: 'text', text }],
          metadata: { baton: { ...data, taskId: task.id } },
          extensions: [],
          visibility: 'shared',
          kind: 'activity',
          activityType: 'system_event',
        },
      ],
      now,
    );
  }
}
