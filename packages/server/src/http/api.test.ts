import { createHash } from 'node:crypto';
import type { Context, Event, EventPage, Task } from '@baton/core';
import { compileErrors, validate as validateOpenApi } from '@readme/openapi-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BatonClient } from '../client/baton-client.js';
import { type ApiHarness, type ErrorReply, startApiServer } from '../test-support/api-harness.js';
import { sqliteFactory, storeFactories } from '../test-support/databases.js';
import { API_ROUTES } from './app.js';

const alice = { 'x-baton-actor': 'alice', 'x-baton-actor-name': 'Alice', 'x-baton-runtime': 'claude-code', 'x-baton-role': 'agent' };
const text = (t: string) => [{ type: 'text', text: t }];
const sha = (s: string) => createHash('sha256').update(s).digest('hex');

async function* repeat(chunk: Uint8Array, times: number): AsyncIterable<Uint8Array> {
  for (let i = 0; i < times; i++) yield chunk;
}

for (const factory of storeFactories()) {
  describe.skipIf(factory.unavailable !== null)(`REST /api/v1 over HTTP: ${factory.name}`, () => {
    let api: ApiHarness;
    beforeAll(async () => {
      api = await startApiServer(factory);
    });
    afterAll(async () => {
      await api?.close();
    });

    it('runs the whole timeline: contexts, events, filters, tail, resolve, consume, tasks', async () => {
      const { send } = api;
      const created = await send<Context>('POST', '/api/v1/contexts', {
        json: { id: 'plan-1', title: 'Ship the parser', description: '# Goal' },
        headers: alice,
      });
      expect(created.status).toBe(201);
      expect(created.contentType).toContain('application/json');
      // The request-context layer turned the identity headers into the owner.
      expect(created.body.owner).toEqual({ id: 'alice', name: 'Alice', runtime: 'claude-code', role: 'agent' });
      expect((await send<Context>('GET', '/api/v1/contexts/plan-1')).body.title).toBe('Ship the parser');
      const patched = await send<Context>('PATCH', '/api/v1/contexts/plan-1', { json: { title: 'Ship the parser v2' } });
      expect(patched.status).toBe(200);
      expect(patched.body.title).toBe('Ship the parser v2');
      const listed = await send<{ contexts: Context[] }>('GET', '/api/v1/contexts?q=parser%20v2');
      expect(listed.body.contexts.map((c) => c.id)).toEqual(['plan-1']);

      const prompt = await send<Event>('POST', '/api/v1/contexts/plan-1/events', {
        json: {
          kind: 'turn',
          direction: 'prompt',
          phase: 'plan',
          round: 1,
          provider: 'anthropic',
          model: 'claude',
          content: text('Plan it'),
        },
        headers: alice,
      });
      expect(prompt.status).toBe(201);
      expect(prompt.body).toMatchObject({ kind: 'turn', contextId: 'plan-1', actor: { id: 'alice', runtime: 'claude-code' } });
      const response = await send<Event>('POST', '/api/v1/contexts/plan-1/events', {
        json: {
          kind: 'turn',
          direction: 'response',
          phase: 'plan',
          round: 1,
          parentId: prompt.body.id,
          usage: { inputTokens: 12, outputTokens: 40, costUsd: 0.001 },
          content: [
            { type: 'thinking', thinking: 'hmm' },
            ...text('Step 1, step 2'),
            { type: 'tool_use', id: 'tu1', name: 'grep', input: { q: 'x' } },
          ],
        },
      });
      expect(response.status).toBe(201);
      const blocker = await send<Event>('POST', '/api/v1/contexts/plan-1/events', {
        json: { kind: 'activity', activityType: 'blocker', content: text('CI is red') },
        headers: { 'x-baton-actor': 'bob', 'x-baton-runtime': 'codex' },
      });
      expect(blocker.body).toMatchObject({ resolved: false, resolvedBy: null, actor: { id: 'bob', role: 'agent' } });
      const batch = await send<{ events: Event[]; created: boolean[] }>('POST', '/api/v1/contexts/plan-1/events', {
        json: {
          events: [
            { kind: 'note', noteType: 'decision', title: 'Use zod', urgency: 'attention', tags: ['schemas'] },
            { kind: 'activity', activityType: 'milestone', content: text('Parser done') },
          ],
        },
      });
      expect(batch.status).toBe(201);
      expect(batch.body.created).toEqual([true, true]);
      const note = batch.body.events[0] as Event;

      const all = await send<EventPage>('GET', '/api/v1/contexts/plan-1/events');
      expect(all.body.events.map((e) => e.id)).toEqual([
        prompt.body.id,
        response.body.id,
        blocker.body.id,
        note.id,
        batch.body.events[1]?.id,
      ]);
      const seqs = all.body.events.map((e) => e.seq);
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
      expect(new Set(seqs).size).toBe(seqs.length);
      expect(all.body.events[1]).toEqual(response.body);

      const tail = await send<EventPage>('GET', '/api/v1/contexts/plan-1/events?tail=2');
      expect(tail.body.events.map((e) => e.id)).toEqual(all.body.events.slice(-2).map((e) => e.id));
      expect(tail.body.hasMore).toBe(true);
      const filter = async (query: string) =>
        (await send<EventPage>('GET', `/api/v1/contexts/plan-1/events?${query}`)).body.events.map((e) => e.id);
      expect(await filter('kind=note')).toEqual([note.id]);
      expect(await filter('kind=turn&direction=response')).toEqual([response.body.id]);
      expect(await filter('phase=plan')).toEqual([prompt.body.id, response.body.id]);
      expect(await filter('activityType=blocker,milestone')).toEqual([blocker.body.id, batch.body.events[1]?.id]);
      expect(await filter('activityType=blocker&activityType=milestone')).toEqual([blocker.body.id, batch.body.events[1]?.id]);
      expect(await filter('actor=bob')).toEqual([blocker.body.id]);
      expect(await filter(`after=${response.body.seq}&limit=1`)).toEqual([blocker.body.id]);
      expect(await filter(`before=${response.body.seq}`)).toEqual([prompt.body.id]);

      const one = await send<Event>('GET', `/api/v1/events/${response.body.id}`);
      expect(one.body).toEqual(response.body);

      const resolved = await send<{ target: Event; record: Event }>('POST', `/api/v1/events/${blocker.body.id}/resolve`, {
        json: { message: 'fixed the flaky test' },
        headers: alice,
      });
      expect(resolved.status).toBe(200);
      expect(resolved.body.target).toMatchObject({ id: blocker.body.id, resolved: true, resolvedBy: { eventId: resolved.body.record.id } });
      expect(resolved.body.record).toMatchObject({ kind: 'activity', refs: [blocker.body.id], actor: { id: 'alice' } });
      expect((await send<Event>('GET', `/api/v1/events/${blocker.body.id}`)).body).toMatchObject({ resolved: true });
      const again = await send<ErrorReply>('POST', `/api/v1/events/${blocker.body.id}/resolve`);
      expect(again.status).toBe(409);
      expect(again.body.error.code).toBe('conflict');
      // Resolving a note is a mistake the caller is told about.
      expect((await send<ErrorReply>('POST', `/api/v1/events/${note.id}/resolve`)).status).toBe(400);

      const consumed = await send<{ target: Event; record: Event }>('POST', `/api/v1/events/${note.id}/consume`);
      expect(consumed.status).toBe(200);
      expect(consumed.body.target).toMatchObject({ consumed: true });
      expect((await send<Event>('GET', `/api/v1/events/${note.id}`)).body).toMatchObject({ consumed: true });

      const task = await send<Task>('POST', '/api/v1/contexts/plan-1/tasks', { json: { id: 'task-1', title: 'Write the parser' } });
      expect(task.status).toBe(201);
      expect(task.body).toMatchObject({ id: 'task-1', contextId: 'plan-1', state: 'submitted' });
      await send('POST', '/api/v1/contexts/plan-1/tasks', { json: { id: 'task-2', title: 'Review', parentTaskId: 'task-1' } });
      const tasks = await send<{ tasks: Task[] }>('GET', '/api/v1/contexts/plan-1/tasks');
      expect(tasks.body.tasks.map((t) => t.id)).toEqual(['task-1', 'task-2']);
      const working = await send<Task>('PATCH', '/api/v1/tasks/task-1', { json: { state: 'working' } });
      expect(working.body.state).toBe('working');
      const done = await send<Task>('PATCH', '/api/v1/tasks/task-1', {
        json: { state: 'completed', message: 'merged', artifacts: [{ id: 'a1', name: 'parser.ts', parts: text('code') }] },
      });
      expect(done.body).toMatchObject({ state: 'completed', artifacts: [{ id: 'a1', name: 'parser.ts' }] });
      expect((await send<Task>('GET', '/api/v1/tasks/task-1')).body.state).toBe('completed');
      expect((await send<{ tasks: Task[] }>('GET', '/api/v1/contexts/plan-1/tasks?state=completed')).body.tasks.map((t) => t.id)).toEqual([
        'task-1',
      ]);
      const illegal = await send<ErrorReply>('PATCH', '/api/v1/tasks/task-1', { json: { state: 'working' } });
      expect(illegal.status).toBe(409);
      expect(illegal.body.error.code).toBe('illegal_transition');
      expect(illegal.body.error.message).toContain("'completed'");
      expect(illegal.body.error.message).toContain("'working'");
      expect(illegal.body.error.details).toMatchObject({ from: 'completed', to: 'working' });
      // Each state change is on the timeline.
      const changes = (await api.allEvents('plan-1')).filter((e) => e.taskId === 'task-1').map((e) => e.metadata.baton);
      expect(changes).toEqual([
        expect.objectContaining({ op: 'task.created', state: 'submitted' }),
        expect.objectContaining({ op: 'task.state', from: 'submitted', to: 'working' }),
        expect.objectContaining({ op: 'task.state', from: 'working', to: 'completed' }),
      ]);
      expect((await send<Context>('GET', '/api/v1/contexts/plan-1')).body).toMatchObject({
        eventCount: (await api.allEvents('plan-1')).length,
      });
    });

    it('retries idempotently by writer id: 200 with the stored event; another body under that id is 409', async () => {
      const { send } = api;
      await send('POST', '/api/v1/contexts', { json: { id: 'retry-ctx' } });
      const event = { id: '01J9ZQ4K6W2T3V5X7Y9A1B3C5D', kind: 'turn', direction: 'prompt', content: text('once') };
      const first = await send<Event>('POST', '/api/v1/contexts/retry-ctx/events', { json: event, headers: alice });
      expect(first.status).toBe(201);
      const retry = await send<Event>('POST', '/api/v1/contexts/retry-ctx/events', { json: event, headers: alice });
      expect(retry.status).toBe(200);
      expect(retry.body).toEqual(first.body);
      const batchRetry = await send<{ events: Event[]; created: boolean[] }>('POST', '/api/v1/contexts/retry-ctx/events', {
        json: { events: [event, { kind: 'note', noteType: 'status', title: 'new' }] },
        headers: alice,
      });
      expect(batchRetry.status).toBe(201);
      expect(batchRetry.body.created).toEqual([false, true]);
      expect(batchRetry.body.events[0]).toEqual(first.body);
      const conflict = await send<ErrorReply>('POST', '/api/v1/contexts/retry-ctx/events', {
        json: { ...event, content: text('twice') },
        headers: alice,
      });
      expect(conflict.status).toBe(409);
      expect(conflict.body.error).toMatchObject({ code: 'conflict', details: { id: event.id } });
      expect((await api.allEvents('retry-ctx')).map((e) => e.id)).toEqual([event.id, batchRetry.body.events[1]?.id]);

      const dupContext = await send<ErrorReply>('POST', '/api/v1/contexts', { json: { id: 'retry-ctx' } });
      expect(dupContext.status).toBe(409);
      expect(dupContext.body.error.message).toContain('retry-ctx');
      await send('POST', '/api/v1/contexts/retry-ctx/tasks', { json: { id: 'retry-task' } });
      const dupTask = await send<ErrorReply>('POST', '/api/v1/contexts/retry-ctx/tasks', { json: { id: 'retry-task' } });
      expect(dupTask.status).toBe(409);
      expect(dupTask.body.error.code).toBe('conflict');
    });

    it('with Prefer: return=minimal, names what it stored by id and seq instead of repeating it', async () => {
      await api.send('POST', '/api/v1/contexts', { json: { id: 'minimal-ctx' } });
      const response = await fetch(`${api.url}/api/v1/contexts/minimal-ctx/events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', prefer: 'return=minimal' },
        body: JSON.stringify({ kind: 'note', noteType: 'status', title: 'one' }),
      });
      expect(response.status).toBe(201);
      expect(response.headers.get('preference-applied')).toBe('return=minimal');
      const [note] = await api.allEvents('minimal-ctx');
      expect(await response.json()).toEqual({ id: note?.id, seq: note?.seq });

      const client = new BatonClient({ url: api.url, actor: { id: 'alice' } });
      const turns = ['a', 'b'].map((t) => JSON.stringify({ id: `minimal-${t}`, kind: 'turn', direction: 'prompt', content: text(t) }));
      const batch = await client.appendSerialized('minimal-ctx', turns);
      const stored = await api.allEvents('minimal-ctx');
      expect(batch).toEqual({ events: stored.slice(1).map(({ id, seq }) => ({ id, seq })), created: [true, true] });
      expect(stored.slice(1).map((e) => [e.id, e.actor.id])).toEqual([
        ['minimal-a', 'alice'],
        ['minimal-b', 'alice'],
      ]);
      expect(await client.appendSerialized('minimal-ctx', turns)).toEqual({ ...batch, created: [false, false] });
      // As UTF-8 bytes with the journal's trailing newline (JSON whitespace), the form the recorder sends.
      const line = Buffer.from(`${JSON.stringify({ id: 'minimal-c', kind: 'turn', direction: 'response', content: text('c é') })}\n`);
      const [third] = (await client.appendSerialized('minimal-ctx', [line])).events;
      expect((await client.getEvent('minimal-c')).content).toEqual(text('c é'));
      expect(third?.seq).toBe((stored.at(-1)?.seq ?? 0) + 1);
      const before = await api.stored();
      await expect(client.appendSerialized('minimal-ctx', [turns[0] as string, '{"kind":"turn"}'])).rejects.toMatchObject({
        code: 'invalid_argument',
        details: { issues: [expect.objectContaining({ path: 'events.1.direction' })] },
      });
      expect(await api.stored()).toEqual(before);
    });

    it('answers racing duplicates as if they came one after another: one 201, then 409s or the stored event', async () => {
      const { send } = api;
      const statuses = async (method: string, path: string, json: unknown) =>
        (await Promise.all(Array.from({ length: 12 }, () => send<{ id: string }>(method, path, { json })))).map((r) => r.status).sort();
      expect(await statuses('POST', '/api/v1/contexts', { id: 'race-ctx' })).toEqual([201, ...Array(11).fill(409)]);
      expect(await statuses('POST', '/api/v1/contexts/race-ctx/tasks', { id: 'race-task' })).toEqual([201, ...Array(11).fill(409)]);
      const event = { id: 'race-event', kind: 'note', noteType: 'status', title: 'once' };
      expect(await statuses('POST', '/api/v1/contexts/race-ctx/events', event)).toEqual([200, ...Array(10).fill(200), 201]);
      expect(await statuses('POST', '/api/v1/contexts/race-ctx/events', { events: [{ ...event, id: 'race-batch' }] })).toEqual([
        200,
        ...Array(10).fill(200),
        201,
      ]);
      const events = await api.allEvents('race-ctx');
      expect(events.filter((e) => e.kind === 'note').map((e) => e.id)).toEqual(['race-event', 'race-batch']);
    });

    it('accepts a 5 MB turn and reads it back byte for byte', async () => {
      await api.send('POST', '/api/v1/contexts', { json: { id: 'big-ctx' } });
      // Multi-byte characters, quotes and newlines, so encoding and escaping are exercised too.
      const unit = 'Zürich “quoted” 🙂 line\n\t"x" \\ ';
      const big = unit.repeat(Math.ceil((5 * 1024 * 1024) / Buffer.byteLength(unit)));
      expect(Buffer.byteLength(big)).toBeGreaterThanOrEqual(5 * 1024 * 1024);
      const created = await api.send<Event>('POST', '/api/v1/contexts/big-ctx/events', {
        json: {
          kind: 'turn',
          direction: 'response',
          content: [
            { type: 'text', text: big },
            { type: 'tool_use', id: 't', name: 'n', input: { tail: unit } },
          ],
        },
      });
      expect(created.status).toBe(201);
      const read = await api.send<Event>('GET', `/api/v1/events/${created.body.id}`);
      const [first, second] = read.body.content;
      expect(first?.type === 'text' && sha(first.text)).toBe(sha(big));
      expect(second).toEqual({ type: 'tool_use', id: 't', name: 'n', input: { tail: unit } });
      const listed = await api.send<EventPage>('GET', '/api/v1/contexts/big-ctx/events');
      expect(listed.body.events[0]).toEqual(read.body);
      expect((await api.send('DELETE', '/api/v1/contexts/big-ctx')).status).toBe(200);
    });

    it('answers 413 to a body over 8 MiB, with or without content-length, and stores nothing', async () => {
      await api.send('POST', '/api/v1/contexts', { json: { id: 'limit-ctx' } });
      const before = await api.stored();
      const mib = new Uint8Array(1024 * 1024).fill(0x61);
      const open = new TextEncoder().encode('{"kind":"note","noteType":"status","title":"t","metadata":{"x":"');
      const body = async function* () {
        yield open;
        yield* repeat(mib, 9);
        yield new TextEncoder().encode('"}}');
      };
      const length = open.byteLength + 9 * mib.byteLength + 3;
      const sized = await api.sendStream('/api/v1/contexts/limit-ctx/events', body(), { 'content-length': String(length) });
      expect(sized.status).toBe(413);
      expect(sized.body.error).toMatchObject({ code: 'payload_too_large', details: { limit: 8 * 1024 * 1024 } });
      const chunked = await api.sendStream('/api/v1/contexts/limit-ctx/events', body());
      expect(chunked.status).toBe(413);
      expect(chunked.body.error.code).toBe('payload_too_large');
      expect(await api.stored()).toEqual(before);
    });

    it('answers 404 with a JSON error for unknown contexts, events, tasks and routes', async () => {
      const cases: [string, string, string][] = [
        ['GET', '/api/v1/contexts/no-such-context', 'no-such-context'],
        ['PATCH', '/api/v1/contexts/no-such-context', 'no-such-context'],
        ['DELETE', '/api/v1/contexts/no-such-context', 'no-such-context'],
        ['GET', '/api/v1/contexts/no-such-context/events', 'no-such-context'],
        ['GET', '/api/v1/contexts/no-such-context/tasks', 'no-such-context'],
        ['GET', '/api/v1/events/no-such-event', 'no-such-event'],
        ['POST', '/api/v1/events/no-such-event/resolve', 'no-such-event'],
        ['POST', '/api/v1/events/no-such-event/consume', 'no-such-event'],
        ['GET', '/api/v1/tasks/no-such-task', 'no-such-task'],
        ['PATCH', '/api/v1/tasks/no-such-task', 'no-such-task'],
        ['GET', '/api/v1/no-such-route', '/api/v1/no-such-route'],
        ['PUT', '/api/v1/contexts', 'PUT /api/v1/contexts'],
        // GET of other paths may be a page of the web UI; any other method is not.
        ['POST', '/no-such-page', '/no-such-page'],
      ];
      for (const [method, path, named] of cases) {
        // A valid body, so that only the missing record can be the problem.
        const options = method === 'PATCH' ? { json: path.includes('/tasks/') ? { state: 'working' } : { title: 'x' } } : {};
        const reply = await api.send<ErrorReply>(method, path, options);
        expect([method, path, reply.status]).toEqual([method, path, 404]);
        expect(reply.contentType).toContain('application/json');
        expect(reply.body.error.code).toBe('not_found');
        expect(reply.body.error.message).toContain(named);
      }
    });

    it('is still healthy after everything above', async () => {
      const health = await api.send<{ ok: boolean; store: string }>('GET', '/healthz');
      expect(health).toMatchObject({ status: 200, body: { ok: true, store: factory.name } });
    });
  });
}

describe('OpenAPI document', () => {
  let api: ApiHarness;
  let doc: OpenApi;
  beforeAll(async () => {
    api = await startApiServer(sqliteFactory);
    doc = (await api.send<OpenApi>('GET', '/api/v1/openapi.json')).body;
  });
  afterAll(async () => {
    await api?.close();
  });

  it('is OpenAPI 3.1.0, lists every route and method, and passes a maintained validator', async () => {
    expect(doc.openapi).toBe('3.1.0');
    for (const route of API_ROUTES) {
      const path = route.path.replace(/:([A-Za-z]+)/g, '{$1}');
      expect(doc.paths[path]?.[route.method]?.operationId, `${route.method} ${path}`).toBe(route.operationId);
    }
    const operations = Object.values(doc.paths).flatMap((methods) => Object.values(methods));
    expect(operations).toHaveLength(API_ROUTES.length);
    const result = await validateOpenApi(structuredClone(doc) as never);
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
  });

  it('describes the responses the server actually sends', async () => {
    // The document is a JSON Schema 2020-12 resource too: its schemas compile and real replies validate.
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    // ajv-formats is CommonJS; its function is also its `default`.
    addFormats.default(ajv);
    ajv.addSchema(doc, 'openapi');
    const check = (operationId: string, reply: { status: number; body: unknown }) => {
      const [path, method] = Object.entries(doc.paths)
        .flatMap(([p, methods]) => Object.entries(methods).map(([m, op]) => [p, m, op.operationId] as const))
        .find(([, , id]) => id === operationId) ?? [undefined, undefined];
      expect(path, operationId).toBeDefined();
      const pointer = ['paths', path, method, 'responses', String(reply.status), 'content', 'application/json', 'schema']
        .map((segment) => String(segment).replaceAll('~', '~0').replaceAll('/', '~1'))
        .join('/');
      const validateReply = ajv.getSchema(`openapi#/${pointer}`);
      expect(validateReply, `${operationId} documents ${reply.status}`).toBeDefined();
      expect(validateReply?.(reply.body), `${operationId} ${reply.status}: ${ajv.errorsText(validateReply?.errors)}`).toBe(true);
    };
    const { send } = api;
    check(
      'createContext',
      await send('POST', '/api/v1/contexts', { json: { id: 'doc-ctx', metadata: { deep: { list: [1, 'a', null] } } } }),
    );
    check('getContext', await send('GET', '/api/v1/contexts/doc-ctx'));
    check('listContexts', await send('GET', '/api/v1/contexts'));
    const turn = {
      id: 'doc-turn',
      kind: 'turn',
      direction: 'prompt',
      content: [{ type: 'tool_use', id: 'x', name: 'y', input: { a: [1] } }],
    };
    check('appendEvents', await send('POST', '/api/v1/contexts/doc-ctx/events', { json: turn }));
    check('appendEvents', await send('POST', '/api/v1/contexts/doc-ctx/events', { json: turn }));
    check(
      'appendEvents',
      await send('POST', '/api/v1/contexts/doc-ctx/events', {
        json: { events: [{ kind: 'note', noteType: 'alert', title: 'n', id: 'doc-note' }] },
      }),
    );
    check('listEvents', await send('GET', '/api/v1/contexts/doc-ctx/events'));
    check('getEvent', await send('GET', '/api/v1/events/doc-turn'));
    check('consumeNote', await send('POST', '/api/v1/events/doc-note/consume'));
    check('createTask', await send('POST', '/api/v1/contexts/doc-ctx/tasks', { json: { id: 'doc-task' } }));
    check('updateTask', await send('PATCH', '/api/v1/tasks/doc-task', { json: { state: 'working' } }));
    check('listTasks', await send('GET', '/api/v1/contexts/doc-ctx/tasks'));
    check('getTask', await send('GET', '/api/v1/tasks/doc-task'));
    check('getEvent', await send('GET', '/api/v1/events/nope'));
    check('appendEvents', await send('POST', '/api/v1/contexts/doc-ctx/events', { json: { kind: 'nope' } }));
    check('updateTask', await send('PATCH', '/api/v1/tasks/doc-task', { json: { state: 'submitted' } }));
    check('deleteContext', await send('DELETE', '/api/v1/contexts/doc-ctx'));
  });
});

interface OpenApi {
  openapi: string;
  paths: Record<string, Record<string, { operationId: string }>>;
}
