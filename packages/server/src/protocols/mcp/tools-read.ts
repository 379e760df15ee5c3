import type { ActivityEvent, Task } from '@baton/core';
import type { McpBackend } from './backend.js';
import { findNotes } from './notes.js';
import { type ContextView, contextMarkdown, noteBlock, taskLine } from './render.js';
import { contextOf, tool } from './tool-kit.js';
import {
  ContextReadInput,
  ContextReadOutput,
  DEFAULT_ACTIVITY_LIMIT,
  DEFAULT_NOTE_LIMIT,
  ListContextsInput,
  ListContextsOutput,
  ReadContextInput,
  ReadContextOutput,
  TaskStatusInput,
  TasksOutput,
} from './tool-schemas.js';

const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true } as const;

/** Tasks shown with a context; more than this is a context to split. */
const TASKS_SHOWN = 100;

/** A context with its tasks and its last `activityLimit` activity entries (A2A historyLength semantics). */
export async function contextView(
  backend: McpBackend,
  contextId: string,
  activityLimit: number,
): Promise<ContextView & { hasMoreActivity: boolean }> {
  const [context, tasks, page] = await Promise.all([
    backend.getContext(contextId),
    backend.listTasks(contextId, { limit: TASKS_SHOWN }),
    // With 0 requested, one entry still tells whether any activity exists.
    backend.listEvents(contextId, { kind: 'activity', tail: Math.max(activityLimit, 1) }),
  ]);
  return {
    context,
    tasks: tasks.tasks,
    activity: (activityLimit > 0 ? page.events : []) as ActivityEvent[],
    hasMoreActivity: activityLimit > 0 ? page.hasMore : page.events.length > 0,
  };
}

export const readContext = tool({
  title: 'Read a context',
  description:
    'Catch up on a context before working on it: its description, its tasks and their states, open blockers and the most recent activity of every agent and human on it.',
  input: ReadContextInput,
  output: ReadContextOutput,
  annotations: READ,
  async run(args, session) {
    const view = await contextView(session.backend(), contextOf(session, args.contextId), args.activityLimit ?? DEFAULT_ACTIVITY_LIMIT);
    return {
      structured: { context: view.context, tasks: [...view.tasks], activity: [...view.activity], hasMoreActivity: view.hasMoreActivity },
      text: contextMarkdown(view),
    };
  },
});

export const contextRead = tool({
  title: 'Read context notes',
  description:
    'Read the notes agents shared on a context (discoveries, decisions, status, requests, alerts), filtered by scope, type, minimum urgency, tags and time; expired notes are never returned.',
  input: ContextReadInput,
  output: ContextReadOutput,
  annotations: READ,
  async run(args, session) {
    const { contextId, limit, ...query } = args;
    const id = contextOf(session, contextId);
    const result = await findNotes(session.backend(), id, { ...query, limit: limit ?? DEFAULT_NOTE_LIMIT });
    const head = `${result.notes.length} note${result.notes.length === 1 ? '' : 's'} in context ${id}${result.hasMore ? ' (older matches exist)' : ''}`;
    return { structured: result, text: [head, ...result.notes.map(noteBlock)].join('\n') };
  },
});

export const taskStatus = tool({
  title: 'Task status',
  description: 'Get one task by id, or list the tasks of a context (optionally only those in some states) with their A2A states.',
  input: TaskStatusInput,
  output: TasksOutput,
  annotations: READ,
  async run(args, session) {
    let tasks: Task[];
    if (args.taskId) {
      tasks = [await session.backend().getTask(args.taskId)];
    } else {
      const query = { limit: TASKS_SHOWN, ...(args.states ? { state: args.states.join(',') } : {}) };
      tasks = (await session.backend().listTasks(contextOf(session, args.contextId), query)).tasks;
    }
    return { structured: { tasks }, text: tasks.length ? tasks.map(taskLine).join('\n') : 'No tasks.' };
  },
});

export const listContexts = tool({
  title: 'List contexts',
  description: 'List the contexts on the hub, most recently updated first, optionally matching a text query.',
  input: ListContextsInput,
  output: ListContextsOutput,
  annotations: READ,
  async run(args, session) {
    const page = await session.backend().listContexts({
      limit: args.limit ?? 50,
      ...(args.query ? { q: args.query } : {}),
      ...(args.cursor ? { cursor: args.cursor } : {}),
    });
    const lines = page.contexts.map((c) => `- ${c.title || '(untitled)'} [${c.id}] · ${c.eventCount} events · updated ${c.updatedAt}`);
    if (page.nextCursor) lines.push(`(more: cursor ${page.nextCursor})`);
    return { structured: page, text: lines.length ? lines.join('\n') : 'No contexts.' };
  },
});
