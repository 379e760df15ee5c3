import type { Event, NoteEvent } from '@baton/core';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { type CallToolResult, McpError, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BatonClient } from '../../client/baton-client.js';

/** Who a test session speaks for. */
export interface AgentIdentity {
  agent: string;
  runtime: string;
  context?: string;
}

/** One transport's way to reach a real hub, for the shared MCP suite. */
export interface McpHarness {
  /** The hub's base URL, for what humans and programs write over REST. */
  hubUrl: string;
  /** A new MCP session, as this agent. */
  connect(identity: AgentIdentity): Promise<Client>;
  close(): Promise<void>;
}

export const TOOL_NAMES = [
  'context_read',
  'context_search',
  'context_write',
  'create_context',
  'create_task',
  'list_contexts',
  'log_activity',
  'log_turn',
  'read_context',
  'resolve_blocker',
  'shared_context',
  'task_status',
  'task_update',
];

const READ_ONLY = new Set(['context_read', 'context_search', 'list_contexts', 'read_context', 'shared_context', 'task_status']);

type Structured = Record<string, unknown>;

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** A tool call that must succeed; returns its structured result. */
async function ok<T = Structured>(client: Client, name: string, args: Record<string, unknown>): Promise<T> {
  const result = await call(client, name, args);
  const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
  expect(result.isError, `${name} failed: ${text}`).toBeFalsy();
  expect(text.length).toBeGreaterThan(0);
  return result.structuredContent as T;
}

/** A tool call that must fail as a tool error; returns its text. */
async function fails(client: Client, name: string, args: Record<string, unknown>): Promise<string> {
  const result = await call(client, name, args);
  expect(result.isError).toBe(true);
  expect(result.structuredContent).toBeUndefined();
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
}

/** The text of a resource read's first content. */
function textOf(result: { contents: ({ text: string } | { blob: string })[] }): string {
  const first = result.contents[0];
  return first && 'text' in first ? first.text : '';
}

async function rpcError(promise: Promise<unknown>): Promise<McpError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(McpError);
    return error as McpError;
  }
  throw new Error('expected a JSON-RPC error');
}

/** Resolves with the URIs of resource updates as they arrive. */
function updates(client: Client): { uris: string[]; next(uri: string, timeoutMs?: number): Promise<void> } {
  const uris: string[] = [];
  const waiters: { uri: string; resolve: () => void }[] = [];
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
    uris.push(n.params.uri);
    for (const w of waiters.filter((x) => x.uri === n.params.uri)) w.resolve();
  });
  return {
    uris,
    next: (uri, timeoutMs = 5000) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no update for ${uri} within ${timeoutMs} ms (got ${JSON.stringify(uris)})`)),
          timeoutMs,
        );
        waiters.push({
          uri,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      }),
  };
}

/**
 * The MCP surface, the same over every transport (stdio through `baton mcp`,
 * Streamable HTTP at /mcp), driven by the official SDK Client against a real
 * hub on a real SQLite file.
 */
export function runMcpSuite(transport: string, setup: () => Promise<McpHarness>): void {
  describe(`MCP over ${transport}`, () => {
    let harness: McpHarness;
    let alice: Client;
    let rest: BatonClient;
    const ctx = `ctx-${transport.replaceAll(/\W/g, '')}`;

    beforeAll(async () => {
      harness = await setup();
      rest = new BatonClient({ url: harness.hubUrl, actor: { id: 'dana', name: 'Dana', runtime: null, role: 'user' } });
      alice = await harness.connect({ agent: 'alice', runtime: 'claude-code' });
      await ok(alice, 'create_context', { id: ctx, title: 'Auth rewrite', description: 'Move login to **OAuth**.' });
    });
    afterAll(async () => {
      await alice?.close();
      await harness?.close();
    });

    it('lists every tool with input and output schemas and truthful hints', async () => {
      const { tools } = await alice.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(TOOL_NAMES);
      for (const tool of tools) {
        expect(tool.inputSchema.type).toBe('object');
        expect(tool.outputSchema?.type, tool.name).toBe('object');
        expect(tool.annotations?.readOnlyHint, tool.name).toBe(READ_ONLY.has(tool.name));
        expect(tool.annotations?.destructiveHint, tool.name).toBe(tool.name === 'task_update');
      }
      const logActivity = tools.find((t) => t.name === 'log_activity');
      expect(logActivity?.inputSchema.required).toEqual(['activityType', 'text']);
      expect(JSON.stringify(logActivity?.inputSchema.properties?.activityType)).toContain('blocker');
    });

    it('logs activity with data and file parts, as the session identity', async () => {
      const task = (await ok<{ task: { id: string } }>(alice, 'create_task', { contextId: ctx, title: 'Write middleware' })).task;
      const logged = await ok<{ id: string; seq: number; contextId: string }>(alice, 'log_activity', {
        contextId: ctx,
        activityType: 'milestone',
        text: 'Middleware scaffolded',
        data: { files: 3 },
        files: [{ uri: 'file:///src/auth.ts', mediaType: 'text/typescript', name: 'auth.ts' }],
        taskId: task.id,
        refs: [task.id],
      });
      expect(logged.contextId).toBe(ctx);
      const stored = await rest.getEvent(logged.id);
      expect(stored).toMatchObject({
        kind: 'activity',
        activityType: 'milestone',
        taskId: task.id,
        refs: [task.id],
        actor: { id: 'alice', runtime: 'claude-code', role: 'agent' },
        content: [
          { type: 'text', text: 'Middleware scaffolded' },
          { type: 'data', data: { files: 3 } },
          { type: 'file', uri: 'file:///src/auth.ts', mediaType: 'text/typescript', name: 'auth.ts' },
        ],
      });
    });

    it('logs a model turn with content blocks, phase, round, model and usage', async () => {
      const prompt = await ok<{ id: string }>(alice, 'log_turn', {
        contextId: ctx,
        direction: 'prompt',
        content: [{ type: 'text', text: 'Review the plan' }],
        phase: 'review',
        round: 1,
        model: 'claude-sonnet-4',
      });
      const response = await ok<{ id: string }>(alice, 'log_turn', {
        contextId: ctx,
        direction: 'response',
        parentId: prompt.id,
        content: [
          { type: 'thinking', thinking: 'The plan skips token refresh.' },
          { type: 'tool_use', id: 'tu1', name: 'read_file', input: { path: 'plan.md' } },
          { type: 'text', text: 'Add refresh tokens.' },
        ],
        phase: 'review',
        round: 1,
        model: 'claude-sonnet-4',
        provider: 'anthropic',
        usage: { inputTokens: 1200, outputTokens: 80, costUsd: 0.0048 },
      });
      const stored = await rest.getEvent(response.id);
      expect(stored).toMatchObject({
        kind: 'turn',
        direction: 'response',
        parentId: prompt.id,
        phase: 'review',
        round: 1,
        model: 'claude-sonnet-4',
        usage: { inputTokens: 1200, outputTokens: 80, costUsd: 0.0048 },
      });
      expect(stored.content.map((b) => b.type)).toEqual(['thinking', 'tool_use', 'text']);
    });

    it('reads a context with tasks and recent activity; activityLimit follows A2A historyLength', async () => {
      const batch = Array.from({ length: 60 }, (_, i) => ({
        kind: 'activity' as const,
        activityType: 'agent_action' as const,
        content: [{ type: 'text' as const, text: `step ${i}` }],
      }));
      await rest.appendEvents(ctx, batch);
      type View = { context: { id: string; title: string }; tasks: unknown[]; activity: Event[]; hasMoreActivity: boolean };
      const full = await call(alice, 'read_context', { contextId: ctx });
      const view = full.structuredContent as View;
      expect(view.context.title).toBe('Auth rewrite');
      expect(view.tasks.length).toBeGreaterThanOrEqual(1);
      expect(view.activity).toHaveLength(50);
      expect(view.hasMoreActivity).toBe(true);
      expect(view.activity.at(-1)?.content[0]).toEqual({ type: 'text', text: 'step 59' });
      const text = full.content[0]?.type === 'text' ? full.content[0].text : '';
      expect(text).toContain('# Auth rewrite');
      expect(text).toContain('Write middleware');
      expect(text).toContain('step 59');
      expect((await ok<View>(alice, 'read_context', { contextId: ctx, activityLimit: 0 })).activity).toEqual([]);
      const three = await ok<View>(alice, 'read_context', { contextId: ctx, activityLimit: 3 });
      expect(three.activity.map((a) => (a.content[0] as { text: string }).text)).toEqual(['step 57', 'step 58', 'step 59']);
    });

    it('writes notes and reads them by scope, urgency, tags and time; never an expired one', async () => {
      const before = new Date().toISOString();
      const written = await ok<{ id: string; expiresAt: string | null }>(alice, 'context_write', {
        contextId: ctx,
        type: 'discovery',
        title: 'Refresh tokens are missing',
        content: 'The plan never refreshes the OAuth token.',
        summary: 'No token refresh',
        scope: 'space',
        tags: ['auth', 'oauth'],
        urgency: 'attention',
        ttl: 3600,
      });
      expect(Date.parse(written.expiresAt ?? '')).toBeGreaterThan(Date.now() + 3500_000);
      await ok(alice, 'context_write', { contextId: ctx, type: 'status', title: 'Lunch', content: 'back at 2', tags: ['misc'] });
      await rest.appendEvent(ctx, {
        kind: 'note',
        noteType: 'alert',
        title: 'Stale alert',
        urgency: 'blocking',
        tags: ['auth'],
        expiresAt: new Date(Date.now() - 60_000).toISOString(),
      });
      type Notes = { notes: NoteEvent[]; hasMore: boolean };
      const auth = await ok<Notes>(alice, 'context_read', { contextId: ctx, tags: ['auth'] });
      expect(auth.notes.map((n) => n.title)).toEqual(['Refresh tokens are missing']);
      expect((await ok<Notes>(alice, 'context_read', { contextId: ctx, minUrgency: 'attention' })).notes.map((n) => n.title)).toEqual([
        'Refresh tokens are missing',
      ]);
      expect((await ok<Notes>(alice, 'context_read', { contextId: ctx, scope: 'thread' })).notes.map((n) => n.title)).toEqual(['Lunch']);
      expect((await ok<Notes>(alice, 'context_read', { contextId: ctx, since: before })).notes).toHaveLength(2);
      expect(
        (await ok<Notes>(alice, 'context_read', { contextId: ctx, since: new Date(Date.now() + 60_000).toISOString() })).notes,
      ).toEqual([]);
      const limited = await ok<Notes>(alice, 'context_read', { contextId: ctx, limit: 1 });
      expect(limited).toMatchObject({ hasMore: true, notes: [{ title: 'Lunch' }] });
    });

    it('creates, lists and moves tasks; an illegal transition is a tool error', async () => {
      const { task } = await ok<{ task: { id: string; state: string } }>(alice, 'create_task', {
        contextId: ctx,
        title: 'Ship it',
        id: `ship-${ctx}`,
      });
      expect(task.state).toBe('submitted');
      const moved = await ok<{ task: { state: string } }>(alice, 'task_update', { taskId: task.id, state: 'working', message: 'on it' });
      expect(moved.task.state).toBe('working');
      expect((await ok<{ tasks: { id: string }[] }>(alice, 'task_status', { taskId: task.id })).tasks.map((t) => t.id)).toEqual([task.id]);
      const working = await ok<{ tasks: { id: string }[] }>(alice, 'task_status', { contextId: ctx, states: ['working'] });
      expect(working.tasks.map((t) => t.id)).toEqual([task.id]);
      await ok(alice, 'task_update', { taskId: task.id, state: 'completed' });
      expect(await fails(alice, 'task_update', { taskId: task.id, state: 'working' })).toMatch(
        /^illegal_transition: .*'completed' is a terminal state/,
      );
    });

    it('resolves a blocker once', async () => {
      const blocker = await ok<{ id: string }>(alice, 'log_activity', {
        contextId: ctx,
        activityType: 'blocker',
        text: 'Need the OAuth client secret',
      });
      const resolved = await ok<{ blocker: { resolved: boolean; resolvedBy: { actor: { id: string } } }; resolution: { id: string } }>(
        alice,
        'resolve_blocker',
        { blockerId: blocker.id, message: 'Secret is in the vault' },
      );
      expect(resolved.blocker.resolved).toBe(true);
      expect(resolved.blocker.resolvedBy.actor.id).toBe('alice');
      expect((await rest.getEvent(resolved.resolution.id)).refs).toEqual([blocker.id]);
      expect(await fails(alice, 'resolve_blocker', { blockerId: blocker.id })).toMatch(/^conflict: .*already resolved/);
    });

    it('lists and creates contexts', async () => {
      const created = await ok<{ context: { id: string; owner: { id: string } } }>(alice, 'create_context', { title: 'Billing export' });
      expect(created.context.owner.id).toBe('alice');
      const found = await ok<{ contexts: { id: string }[] }>(alice, 'list_contexts', { query: 'billing' });
      expect(found.contexts.map((c) => c.id)).toEqual([created.context.id]);
      const all = await ok<{ contexts: { id: string }[]; nextCursor: string | null }>(alice, 'list_contexts', { limit: 1 });
      expect(all.contexts).toHaveLength(1);
      expect(all.nextCursor).not.toBeNull();
    });

    it('rejects bad arguments with an error naming the field, and stores nothing', async () => {
      const before = (await rest.getContext(ctx)).eventCount;
      expect(await fails(alice, 'log_activity', { contextId: ctx, activityType: 'celebration', text: 'x' })).toMatch(/activityType/);
      expect(await fails(alice, 'log_activity', { contextId: ctx, activityType: 'milestone', text: 'x', planId: 'p1' })).toMatch(/planId/);
      expect(await fails(alice, 'log_activity', { contextId: ctx, activityType: 'milestone' })).toMatch(/text/);
      expect(await fails(alice, 'log_turn', { contextId: ctx, direction: 'response', content: [{ type: 'text' }] })).toMatch(/content/);
      expect(await fails(alice, 'context_write', { contextId: ctx, type: 'discovery', title: 'x', content: 'y', ttl: -5 })).toMatch(/ttl/);
      expect(await fails(alice, 'read_context', { contextId: ctx, activityLimit: -1 })).toMatch(/activityLimit/);
      expect(await fails(alice, 'log_activity', { activityType: 'milestone', text: 'no context' })).toMatch(
        /^invalid_argument: .*contextId/,
      );
      expect((await rest.getContext(ctx)).eventCount).toBe(before);
    });

    it('says which id was not found', async () => {
      expect(await fails(alice, 'read_context', { contextId: 'no-such-context' })).toBe(
        "not_found: context 'no-such-context' was not found",
      );
      expect(await fails(alice, 'log_activity', { contextId: 'no-such-context', activityType: 'milestone', text: 'x' })).toMatch(
        /no-such-context/,
      );
      expect(await fails(alice, 'task_status', { taskId: 'no-such-task' })).toBe("not_found: task 'no-such-task' was not found");
      // The SDK answers an unknown tool with a tool error, not a JSON-RPC error.
      expect(await fails(alice, 'no_such_tool', {})).toMatch(/Tool no_such_tool not found/);
      expect(await fails(alice, 'log_activity', { contextId: ctx, activityType: 'milestone', text: 'x', taskId: 'ghost' })).toMatch(
        /^not_found: .*'ghost'/,
      );
    });

    it('defaults to the session context', async () => {
      const bob = await harness.connect({ agent: 'bob', runtime: 'codex', context: ctx });
      try {
        const logged = await ok<{ contextId: string; id: string }>(bob, 'log_activity', { activityType: 'decision', text: 'Use PKCE' });
        expect(logged.contextId).toBe(ctx);
        expect((await rest.getEvent(logged.id)).actor).toMatchObject({ id: 'bob', runtime: 'codex' });
        const decisions = await bob.readResource({ uri: 'decisions://recent' });
        expect(decisions.contents[0]).toMatchObject({ uri: 'decisions://recent', mimeType: 'text/markdown' });
        expect(textOf(decisions)).toContain('Use PKCE');
      } finally {
        await bob.close();
      }
    });

    it('serves the context, its activity and active tasks as resources', async () => {
      const { resourceTemplates } = await alice.listResourceTemplates();
      expect(resourceTemplates.map((t) => t.uriTemplate).sort()).toEqual(['baton://contexts/{id}', 'baton://contexts/{id}/activity']);
      const { resources } = await alice.listResources();
      expect(resources.map((r) => r.uri)).toEqual(
        expect.arrayContaining(['task://active', 'decisions://recent', `baton://contexts/${ctx}`]),
      );
      const context = await alice.readResource({ uri: `baton://contexts/${ctx}` });
      expect(textOf(context)).toContain('# Auth rewrite');
      expect(textOf(context)).toContain('Refresh tokens are missing');
      const activity = await alice.readResource({ uri: `baton://contexts/${ctx}/activity` });
      expect(textOf(activity)).toContain('Need the OAuth client secret');
      const active = await alice.readResource({ uri: 'task://active' });
      expect(textOf(active)).toContain('Write middleware');
      expect(textOf(active)).not.toContain('Ship it');
      expect((await rpcError(alice.readResource({ uri: 'baton://contexts/nope' }))).code).toBe(-32002);
      expect((await rpcError(alice.readResource({ uri: 'baton://elsewhere' }))).code).toBe(-32602);
      expect((await rpcError(alice.subscribeResource({ uri: 'baton://contexts/nope' }))).code).toBe(-32002);
    });

    it('tells a subscribed session when another agent or a human writes to the resource', async () => {
      const watcher = await harness.connect({ agent: 'carol', runtime: 'cursor' });
      const writer = await harness.connect({ agent: 'bob', runtime: 'codex' });
      try {
        const seen = updates(watcher);
        const uri = `baton://contexts/${ctx}`;
        await watcher.subscribeResource({ uri });
        await watcher.subscribeResource({ uri: 'task://active' });

        const byAgent = seen.next(uri);
        await ok(writer, 'log_activity', { contextId: ctx, activityType: 'milestone', text: 'Login works' });
        await byAgent;
        const reread = await watcher.readResource({ uri });
        expect(textOf(reread)).toContain('Login works');

        const byHuman = seen.next(uri);
        await rest.appendEvent(ctx, {
          kind: 'activity',
          activityType: 'human_feedback',
          content: [{ type: 'text', text: 'Use GitHub as IdP' }],
        });
        await byHuman;

        const taskMoved = seen.next('task://active');
        await ok(writer, 'create_task', { contextId: ctx, title: 'Logout' });
        await taskMoved;

        await watcher.unsubscribeResource({ uri });
        await watcher.unsubscribeResource({ uri: 'task://active' });
        const count = seen.uris.length;
        await ok(writer, 'log_activity', { contextId: ctx, activityType: 'milestone', text: 'after unsubscribe' });
        await new Promise((r) => setTimeout(r, 300));
        expect(seen.uris.length).toBe(count);
      } finally {
        await watcher.close();
        await writer.close();
      }
    });
  });
}
