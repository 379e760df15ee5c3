import { type ActivityEvent, type Event, type LiveFilter, type NoteEvent, TASK_STATES, TERMINAL_TASK_STATES } from '@baton/core';
import { type McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { UriTemplate } from '@modelcontextprotocol/sdk/shared/uriTemplate.js';
import { ErrorCode, McpError, type ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { protocolError, RESOURCE_NOT_FOUND } from './errors.js';
import { findNotes } from './notes.js';
import { contextMarkdown, eventLine, taskLine } from './render.js';
import { TEAM_CONTEXT_URI } from './resources-handoff.js';
import type { ToolSession } from './tool-kit.js';
import { contextView } from './tools-read.js';

/**
 * The resources (`baton://contexts/{id}`, `…/activity`, `task://active`,
 * `decisions://recent`), each rendered as markdown, and what each one depends
 * on: a subscription watches exactly the events that change it.
 */

export const CONTEXT_URI = new UriTemplate('baton://contexts/{id}');
export const ACTIVITY_URI = new UriTemplate('baton://contexts/{id}/activity');
export const ACTIVE_TASKS_URI = 'task://active';
export const DECISIONS_URI = 'decisions://recent';

const ACTIVITY_SHOWN = 50;
const CONTEXT_ACTIVITY_SHOWN = 20;
const DECISIONS_SHOWN = 20;
/** Without a session context, the global resources cover this many recently updated contexts. */
const RECENT_CONTEXTS = 20;
const ACTIVE_STATES = TASK_STATES.filter((s) => !TERMINAL_TASK_STATES.has(s)).join(',');

export interface ResourceWatch {
  filter: LiveFilter;
  /** Narrows further than a LiveFilter can (task changes are activities with `metadata.baton.op`). */
  affects?: (event: Event) => boolean;
}

function markdown(uri: URL | string, text: string): ReadResourceResult {
  return { contents: [{ uri: uri.toString(), mimeType: 'text/markdown', text }] };
}

function variable(value: string | string[] | undefined): string {
  return Array.isArray(value) ? (value[0] ?? '') : (value ?? '');
}

/** A context a resource names must exist: otherwise the resource does not (MCP -32002). */
async function requireContext(session: ToolSession, id: string, uri: string): Promise<void> {
  try {
    await session.backend().getContext(id);
  } catch (error) {
    const mapped = protocolError(error);
    if (mapped.code === RESOURCE_NOT_FOUND)
      throw new McpError(RESOURCE_NOT_FOUND, `resource ${uri} not found: context '${id}' does not exist`, { uri });
    throw mapped;
  }
}

async function coveredContexts(session: ToolSession): Promise<string[]> {
  if (session.defaultContextId) return [session.defaultContextId];
  const page = await session.backend().listContexts({ limit: RECENT_CONTEXTS });
  return page.contexts.map((c) => c.id);
}

function isTaskChange(event: Event): boolean {
  const op = (event.metadata.baton as { op?: unknown } | undefined)?.op;
  return typeof op === 'string' && op.startsWith('task.');
}

async function read(uri: URL, body: () => Promise<string>): Promise<ReadResourceResult> {
  try {
    return markdown(uri, await body());
  } catch (error) {
    throw protocolError(error);
  }
}

export function registerResources(mcp: McpServer, session: ToolSession): void {
  mcp.registerResource(
    'context',
    new ResourceTemplate(CONTEXT_URI, {
      list: async () => {
        const page = await session.backend().listContexts({ limit: 100 });
        return {
          resources: page.contexts.map((c) => ({ uri: `baton://contexts/${c.id}`, name: c.title || c.id, mimeType: 'text/markdown' })),
        };
      },
    }),
    {
      title: 'Context',
      description: 'A context as markdown: description, tasks, open blockers, pressing notes, recent activity',
      mimeType: 'text/markdown',
    },
    (uri, vars) =>
      read(uri, async () => {
        const id = variable(vars.id);
        await requireContext(session, id, uri.toString());
        const [view, notes] = await Promise.all([
          contextView(session.backend(), id, CONTEXT_ACTIVITY_SHOWN),
          findNotes(session.backend(), id, { minUrgency: 'attention', limit: 20 }),
        ]);
        return contextMarkdown({ ...view, notes: notes.notes });
      }),
  );

  mcp.registerResource(
    'context-activity',
    new ResourceTemplate(ACTIVITY_URI, { list: undefined }),
    { title: 'Context activity', description: `The last ${ACTIVITY_SHOWN} activity entries of a context`, mimeType: 'text/markdown' },
    (uri, vars) =>
      read(uri, async () => {
        const id = variable(vars.id);
        await requireContext(session, id, uri.toString());
        const page = await session.backend().listEvents(id, { kind: 'activity', tail: ACTIVITY_SHOWN });
        return [`# Activity of ${id}`, '', ...(page.events.length ? page.events.map(eventLine) : ['(none)'])].join('\n');
      }),
  );

  mcp.registerResource(
    'active-tasks',
    ACTIVE_TASKS_URI,
    {
      title: 'Active tasks',
      description: "Tasks not yet in a terminal state, in the session's context (or the most recently updated contexts)",
      mimeType: 'text/markdown',
    },
    (uri) =>
      read(uri, async () => {
        const lines = ['# Active tasks', ''];
        for (const id of await coveredContexts(session)) {
          const { tasks } = await session.backend().listTasks(id, { state: ACTIVE_STATES, limit: 100 });
          if (tasks.length) lines.push(`## ${id}`, '', ...tasks.map(taskLine), '');
        }
        if (lines.length === 2) lines.push('(none)');
        return lines.join('\n');
      }),
  );

  mcp.registerResource(
    'recent-decisions',
    DECISIONS_URI,
    {
      title: 'Recent decisions',
      description: "Decisions (activities and notes) in the session's context (or the most recently updated contexts), newest last",
      mimeType: 'text/markdown',
    },
    (uri) =>
      read(uri, async () => {
        const decisions: (ActivityEvent | NoteEvent)[] = [];
        for (const id of await coveredContexts(session)) {
          const page = await session
            .backend()
            .listEvents(id, { kind: 'activity,note', activityType: 'decision', noteType: 'decision', tail: DECISIONS_SHOWN });
          decisions.push(...(page.events as (ActivityEvent | NoteEvent)[]));
        }
        decisions.sort((a, b) => a.seq - b.seq);
        const shown = decisions.slice(-DECISIONS_SHOWN);
        return ['# Recent decisions', '', ...(shown.length ? shown.map(eventLine) : ['(none)'])].join('\n');
      }),
  );
}

/** What a subscription to `uri` must watch; unknown URIs and contexts are protocol errors. */
export async function watchFor(uri: string, session: ToolSession): Promise<ResourceWatch> {
  const context = CONTEXT_URI.match(uri);
  if (context) {
    const id = variable(context.id);
    await requireContext(session, id, uri);
    return { filter: { contextIds: [id], kinds: ['activity', 'note'] } };
  }
  const activity = ACTIVITY_URI.match(uri);
  if (activity) {
    const id = variable(activity.id);
    await requireContext(session, id, uri);
    return { filter: { contextIds: [id], kinds: ['activity'] } };
  }
  // The global resources follow every context unless the session has its own.
  const scoped: LiveFilter = session.defaultContextId ? { contextIds: [session.defaultContextId] } : {};
  if (uri === ACTIVE_TASKS_URI)
    return { filter: { ...scoped, kinds: ['activity'], activityTypes: ['system_event'] }, affects: isTaskChange };
  if (uri === TEAM_CONTEXT_URI) return { filter: scoped };
  if (uri === DECISIONS_URI)
    return { filter: { ...scoped, kinds: ['activity', 'note'], activityTypes: ['decision'], noteTypes: ['decision'] } };
  throw new McpError(
    ErrorCode.InvalidParams,
    `no such resource: ${uri} (baton://contexts/{id}, baton://contexts/{id}/activity, ${ACTIVE_TASKS_URI}, ${DECISIONS_URI})`,
    {
      uri,
    },
  );
}
