import type { ContentBlock, Event } from '@baton/core';
import { eventLine, taskLine } from './render.js';
import { contextOf, tool } from './tool-kit.js';
import {
  ContextOutput,
  ContextWriteInput,
  CreateContextInput,
  CreateTaskInput,
  EventRef,
  LogActivityInput,
  LogTurnInput,
  NoteRef,
  ResolveBlockerInput,
  ResolveBlockerOutput,
  TaskOutput,
  TaskUpdateInput,
} from './tool-schemas.js';

/** Tools that write. Appends are additive (nothing is overwritten); retries with the same `id` store once. */

function ref(event: Event): EventRef {
  return { id: event.id, seq: event.seq, contextId: event.contextId, kind: event.kind, createdAt: event.createdAt };
}

/**
 * Arguments not given are left out rather than sent as undefined, so both
 * backends see the same input: JSON drops an undefined key, an in-process
 * parse would keep it (and a patch of only undefined keys is no patch).
 */
function defined<T extends object>(value: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as { [K in keyof T]: Exclude<T[K], undefined> };
}

const APPEND = { readOnlyHint: false, destructiveHint: false, idempotentHint: false } as const;

export const logActivity = tool({
  title: 'Log activity',
  description:
    'Record what you did, decided, finished or are blocked on, on the shared timeline of a context, so other agents and humans see it live and the next agent can pick up from it.',
  input: LogActivityInput,
  output: EventRef,
  annotations: APPEND,
  async run(args, session) {
    const content: ContentBlock[] = [{ type: 'text', text: args.text }];
    if (args.data !== undefined) content.push({ type: 'data', data: args.data });
    for (const file of args.files ?? []) content.push({ type: 'file', ...file });
    const event = await session.backend().appendEvent(
      contextOf(session, args.contextId),
      defined({
        kind: 'activity',
        activityType: args.activityType,
        content,
        taskId: args.taskId,
        refs: args.refs,
        parentId: args.parentId,
        id: args.id,
      }),
    );
    return { structured: ref(event), text: `Logged ${args.activityType} #${event.seq} [${event.id}] in context ${event.contextId}.` };
  },
});

export const logTurn = tool({
  title: 'Log a model turn',
  description:
    'Record one prompt sent to a model or one response from it (content blocks, phase, round, model, token usage), threaded with parentId, so the whole conversation can be reviewed and continued elsewhere.',
  input: LogTurnInput,
  output: EventRef,
  annotations: APPEND,
  async run(args, session) {
    const { contextId, ...turn } = args;
    const event = await session.backend().appendEvent(contextOf(session, contextId), defined({ kind: 'turn' as const, ...turn }));
    return { structured: ref(event), text: `Logged ${args.direction} #${event.seq} [${event.id}] in context ${event.contextId}.` };
  },
});

export const contextWrite = tool({
  title: 'Write a context note',
  description:
    'Share a distilled note — a discovery, decision, status, request or alert — with every agent on the context: title, content, one-line summary, scope, tags, urgency and an optional time to live.',
  input: ContextWriteInput,
  output: NoteRef,
  annotations: APPEND,
  async run(args, session) {
    const event = await session.backend().appendEvent(
      contextOf(session, args.contextId),
      defined({
        kind: 'note',
        noteType: args.type,
        title: args.title,
        content: [{ type: 'text', text: args.content }],
        summary: args.summary,
        scope: args.scope,
        tags: args.tags,
        urgency: args.urgency,
        ttlSeconds: args.ttl,
        taskId: args.taskId,
        refs: args.refs,
        id: args.id,
      }),
    );
    const expiresAt = event.kind === 'note' ? event.expiresAt : null;
    return {
      structured: { ...ref(event), expiresAt },
      text: `Wrote ${args.type} note #${event.seq} [${event.id}] in context ${event.contextId}${expiresAt ? `, expires ${expiresAt}` : ''}.`,
    };
  },
});

export const createContext = tool({
  title: 'Create a context',
  description: 'Start a new shared context (a plan, a thread, a piece of work) that agents and humans write to and read from.',
  input: CreateContextInput,
  output: ContextOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  async run(args, session) {
    const context = await session.backend().createContext(defined(args));
    return { structured: { context }, text: `Created context ${context.id}: ${context.title}` };
  },
});

export const createTask = tool({
  title: 'Create a task',
  description: 'Add a unit of work to a context; its state follows the A2A task states and every change is recorded on the timeline.',
  input: CreateTaskInput,
  output: TaskOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  async run(args, session) {
    const { contextId, ...task } = args;
    const created = await session.backend().createTask(contextOf(session, contextId), defined(task));
    return { structured: { task: created }, text: `Created task in context ${created.contextId}:\n${taskLine(created)}` };
  },
});

export const taskUpdate = tool({
  title: 'Update a task',
  description:
    'Move a task to a new state (submitted → working → input-required / completed / failed …; terminal states are final), with a message saying why, or change its title, description, artifacts or metadata.',
  input: TaskUpdateInput,
  output: TaskOutput,
  // Title, description and metadata are replaced, and a terminal state cannot be undone.
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
  async run(args, session) {
    const { taskId, ...change } = args;
    const task = await session.backend().updateTask(taskId, defined(change));
    return { structured: { task }, text: `Updated task:\n${taskLine(task)}` };
  },
});

export const resolveBlocker = tool({
  title: 'Resolve a blocker',
  description:
    'Mark an open blocker as resolved, with how; the resolution is recorded on the timeline and the blocker shows as resolved to everyone.',
  input: ResolveBlockerInput,
  output: ResolveBlockerOutput,
  // Additive: the resolution is a new event; the blocker itself is kept.
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  async run(args, session) {
    const { target, record } = await session.backend().resolveBlocker(args.blockerId, args.message);
    if (target.kind !== 'activity') throw new Error(`resolveBlocker returned a ${target.kind}`);
    return {
      structured: { blocker: target, resolution: ref(record) },
      text: `Resolved:\n${eventLine(target)}\nRecorded as #${record.seq} [${record.id}].`,
    };
  },
});
