import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, type ErrorReply, type SendOptions, startApiServer } from '../test-support/api-harness.js';
import { storeFactories } from '../test-support/databases.js';

interface Rejection {
  name: string;
  method: string;
  path: string;
  send?: SendOptions;
  status: number;
  code: string;
  /** The field, parameter or header the error must name (in its message and its issues). */
  names: string;
}

const turn = { kind: 'turn', direction: 'prompt' };
const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));
const nested = (depth: number) =>
  `{"kind":"note","noteType":"status","title":"t","metadata":{"x":${'['.repeat(depth)}${']'.repeat(depth)}}}`;
const events = '/api/v1/contexts/ctx-v/events';

/**
 * Every way a request can be wrong, each answered with a JSON error that names
 * what was wrong; after each one the store holds exactly what it held before.
 */
const REJECTIONS: Rejection[] = [
  {
    name: 'a wrong type',
    method: 'POST',
    path: events,
    send: { json: { ...turn, round: 'three' } },
    status: 400,
    code: 'invalid_argument',
    names: 'round',
  },
  {
    name: 'a wrong type on a context',
    method: 'POST',
    path: '/api/v1/contexts',
    send: { json: { title: 42 } },
    status: 400,
    code: 'invalid_argument',
    names: 'title',
  },
  {
    name: 'an unknown kind',
    method: 'POST',
    path: events,
    send: { json: { kind: 'memo' } },
    status: 400,
    code: 'invalid_argument',
    names: 'kind',
  },
  {
    name: 'a missing required field',
    method: 'POST',
    path: events,
    send: { json: { kind: 'turn' } },
    status: 400,
    code: 'invalid_argument',
    names: 'direction',
  },
  {
    name: 'a note without a title',
    method: 'POST',
    path: events,
    send: { json: { kind: 'note', noteType: 'status' } },
    status: 400,
    code: 'invalid_argument',
    names: 'title',
  },
  {
    name: 'an unknown extra key',
    method: 'POST',
    path: events,
    send: { json: { ...turn, colour: 'red' } },
    status: 400,
    code: 'invalid_argument',
    names: 'colour',
  },
  {
    name: 'an unknown key in the actor',
    method: 'POST',
    path: events,
    send: { json: { ...turn, actor: { id: 'a', mood: 'x' } } },
    status: 400,
    code: 'invalid_argument',
    names: 'mood',
  },
  {
    name: 'an unknown activity type',
    method: 'POST',
    path: events,
    send: { json: { kind: 'activity', activityType: 'party' } },
    status: 400,
    code: 'invalid_argument',
    names: 'activityType',
  },
  {
    name: 'a bad content block',
    method: 'POST',
    path: events,
    send: { json: { ...turn, content: [{ type: 'text', text: 7 }] } },
    status: 400,
    code: 'invalid_argument',
    names: 'content.0.text',
  },
  { name: 'limit=abc', method: 'GET', path: `${events}?limit=abc`, status: 400, code: 'invalid_argument', names: 'limit' },
  {
    name: 'a repeated single-valued parameter',
    method: 'GET',
    path: `${events}?limit=1&limit=2`,
    status: 400,
    code: 'invalid_argument',
    names: 'limit',
  },
  { name: 'kind=bogus', method: 'GET', path: `${events}?kind=bogus`, status: 400, code: 'invalid_argument', names: 'kind' },
  {
    name: 'an unknown query parameter',
    method: 'GET',
    path: `${events}?colour=red`,
    status: 400,
    code: 'invalid_argument',
    names: 'colour',
  },
  { name: 'a bad time', method: 'GET', path: `${events}?since=yesterday`, status: 400, code: 'invalid_argument', names: 'since' },
  { name: 'a negative cursor', method: 'GET', path: `${events}?after=-1`, status: 400, code: 'invalid_argument', names: 'after' },
  {
    name: 'a bad task state filter',
    method: 'GET',
    path: '/api/v1/contexts/ctx-v/tasks?state=done',
    status: 400,
    code: 'invalid_argument',
    names: 'state',
  },
  { name: 'NUL in a search', method: 'GET', path: '/api/v1/contexts?q=a%00b', status: 400, code: 'invalid_argument', names: 'q' },
  {
    name: 'a forged cursor',
    method: 'GET',
    path: `/api/v1/contexts?cursor=${Buffer.from('1:a\u0000b').toString('base64url')}`,
    status: 400,
    code: 'invalid_argument',
    names: 'cursor',
  },
  {
    name: 'a bad role header',
    method: 'POST',
    path: events,
    send: { json: turn, headers: { 'x-baton-actor': 'a', 'x-baton-role': 'wizard' } },
    status: 400,
    code: 'invalid_argument',
    names: 'X-Baton-Role',
  },
  {
    name: 'an empty actor header',
    method: 'POST',
    path: events,
    send: { json: turn, headers: { 'x-baton-actor': '' } },
    status: 400,
    code: 'invalid_argument',
    names: 'X-Baton-Actor',
  },
  {
    name: 'malformed JSON',
    method: 'POST',
    path: events,
    send: { raw: '{"kind":"turn",' },
    status: 400,
    code: 'invalid_argument',
    names: 'not valid JSON',
  },
  {
    name: 'invalid UTF-8',
    method: 'POST',
    path: events,
    send: { raw: bytes('{"kind":"note","noteType":"status","title":"', [0xff, 0xfe, 0xc3], '"}') },
    status: 400,
    code: 'invalid_argument',
    names: 'UTF-8',
  },
  { name: 'an empty body', method: 'POST', path: events, send: { raw: '' }, status: 400, code: 'invalid_argument', names: 'empty' },
  {
    name: 'a JSON array body',
    method: 'POST',
    path: '/api/v1/contexts',
    send: { json: [] },
    status: 400,
    code: 'invalid_argument',
    names: 'expected object',
  },
  {
    name: 'a JSON null body',
    method: 'PATCH',
    path: '/api/v1/contexts/ctx-v',
    send: { raw: 'null' },
    status: 400,
    code: 'invalid_argument',
    names: 'expected object',
  },
  {
    name: 'an empty patch',
    method: 'PATCH',
    path: '/api/v1/contexts/ctx-v',
    send: { json: {} },
    status: 400,
    code: 'invalid_argument',
    names: 'at least one field',
  },
  {
    name: 'a bad task state',
    method: 'PATCH',
    path: '/api/v1/tasks/task-v',
    send: { json: { state: 'done' } },
    status: 400,
    code: 'invalid_argument',
    names: 'state',
  },
  {
    name: 'a 20k-character title',
    method: 'POST',
    path: '/api/v1/contexts',
    send: { json: { title: 't'.repeat(20_000) } },
    status: 400,
    code: 'invalid_argument',
    names: 'title',
  },
  {
    name: 'a 20k-character note title',
    method: 'POST',
    path: events,
    send: { json: { kind: 'note', noteType: 'status', title: 'n'.repeat(20_000) } },
    status: 400,
    code: 'invalid_argument',
    names: 'title',
  },
  {
    name: 'an unpaired surrogate in a title',
    method: 'POST',
    path: '/api/v1/contexts',
    send: { raw: '{"title":"\\ud800"}' },
    status: 400,
    code: 'invalid_argument',
    names: 'title',
  },
  {
    name: 'NUL in a context id',
    method: 'POST',
    path: '/api/v1/contexts',
    send: { json: { id: 'a\u0000b' } },
    status: 400,
    code: 'invalid_argument',
    names: 'id',
  },
  {
    name: 'NUL in an event id',
    method: 'POST',
    path: events,
    send: { json: { ...turn, id: 'e\u0000' } },
    status: 400,
    code: 'invalid_argument',
    names: 'id',
  },
  {
    name: 'NUL in a phase',
    method: 'POST',
    path: events,
    send: { json: { ...turn, phase: 'p\u0000' } },
    status: 400,
    code: 'invalid_argument',
    names: 'phase',
  },
  {
    name: 'NUL in an id in the path',
    method: 'POST',
    path: '/api/v1/contexts/a%00b/events',
    send: { json: turn },
    status: 400,
    code: 'invalid_argument',
    names: 'id',
  },
  {
    name: 'NUL in an event id in the path',
    method: 'GET',
    path: '/api/v1/events/a%00b',
    status: 400,
    code: 'invalid_argument',
    names: 'id',
  },
  {
    name: 'a 5,000-character id in the path',
    method: 'GET',
    path: `/api/v1/tasks/${'x'.repeat(5000)}`,
    status: 400,
    code: 'invalid_argument',
    names: 'id',
  },
  {
    name: 'a batch of 1,001 events',
    method: 'POST',
    path: events,
    send: { json: { events: Array.from({ length: 1001 }, () => turn) } },
    status: 400,
    code: 'invalid_argument',
    names: 'events',
  },
  {
    name: 'an empty batch',
    method: 'POST',
    path: events,
    send: { json: { events: [] } },
    status: 400,
    code: 'invalid_argument',
    names: 'events',
  },
  {
    name: 'a batch with one bad event',
    method: 'POST',
    path: events,
    send: { json: { events: [turn, turn, turn, { ...turn, round: -1 }] } },
    status: 400,
    code: 'invalid_argument',
    names: 'events.3.round',
  },
  {
    name: 'a batch with an extra key',
    method: 'POST',
    path: events,
    send: { json: { events: [turn], extra: 1 } },
    status: 400,
    code: 'invalid_argument',
    names: 'extra',
  },
  {
    name: 'a batch that reuses an id with another body',
    method: 'POST',
    path: events,
    send: {
      json: {
        events: [
          { ...turn, id: 'dup' },
          { ...turn, id: 'dup', phase: 'p' },
        ],
      },
    },
    status: 409,
    code: 'conflict',
    names: 'dup',
  },
  {
    name: 'another context id in the body',
    method: 'POST',
    path: events,
    send: { json: { ...turn, contextId: 'elsewhere' } },
    status: 400,
    code: 'invalid_argument',
    names: 'contextId',
  },
  {
    name: 'nesting 100,000 levels deep',
    method: 'POST',
    path: events,
    send: { raw: nested(100_000) },
    status: 400,
    code: 'invalid_argument',
    names: 'levels deep',
  },
  {
    name: 'nesting 5,000 levels deep',
    method: 'POST',
    path: events,
    send: { raw: nested(5_000) },
    status: 400,
    code: 'invalid_argument',
    names: 'levels deep',
  },
  {
    name: 'a task that is not there',
    method: 'POST',
    path: events,
    send: { json: { ...turn, taskId: 'no-task' } },
    status: 404,
    code: 'not_found',
    names: 'no-task',
  },
  {
    name: 'a context that is not there',
    method: 'POST',
    path: '/api/v1/contexts/no-ctx/events',
    send: { json: turn },
    status: 404,
    code: 'not_found',
    names: 'no-ctx',
  },
  {
    name: 'a parent that is not there',
    method: 'POST',
    path: '/api/v1/contexts',
    send: { json: { parentId: 'no-parent' } },
    status: 404,
    code: 'not_found',
    names: 'no-parent',
  },
  {
    name: 'a context made its own parent',
    method: 'PATCH',
    path: '/api/v1/contexts/ctx-v',
    send: { json: { parentId: 'ctx-v' } },
    status: 400,
    code: 'invalid_argument',
    names: 'parentId',
  },
  {
    name: 'a context id that is taken',
    method: 'POST',
    path: '/api/v1/contexts',
    send: { json: { id: 'ctx-v' } },
    status: 409,
    code: 'conflict',
    names: 'ctx-v',
  },
  {
    name: 'a task id that is taken',
    method: 'POST',
    path: '/api/v1/contexts/ctx-v/tasks',
    send: { json: { id: 'task-v' } },
    status: 409,
    code: 'conflict',
    names: 'task-v',
  },
  {
    name: 'an event id that is taken by another body',
    method: 'POST',
    path: events,
    send: { json: { ...turn, id: 'turn-v', phase: 'other' } },
    status: 409,
    code: 'conflict',
    names: 'turn-v',
  },
  {
    name: 'an illegal transition',
    method: 'PATCH',
    path: '/api/v1/tasks/task-done',
    send: { json: { state: 'working' } },
    status: 409,
    code: 'illegal_transition',
    names: "from 'completed' to 'working'",
  },
  {
    name: 'resolving a turn',
    method: 'POST',
    path: '/api/v1/events/turn-v/resolve',
    status: 400,
    code: 'invalid_argument',
    names: 'turn-v',
  },
  {
    name: 'consuming a turn',
    method: 'POST',
    path: '/api/v1/events/turn-v/consume',
    send: { json: {} },
    status: 400,
    code: 'invalid_argument',
    names: 'turn-v',
  },
  {
    name: 'a bad resolve body',
    method: 'POST',
    path: '/api/v1/events/blocker-v/resolve',
    send: { json: { message: 5 } },
    status: 400,
    code: 'invalid_argument',
    names: 'message',
  },
];

for (const factory of storeFactories()) {
  describe.skipIf(factory.unavailable !== null)(`REST /api/v1 rejects bad input and stores nothing: ${factory.name}`, () => {
    let api: ApiHarness;
    beforeAll(async () => {
      api = await startApiServer(factory);
      const setup: [string, string, unknown][] = [
        ['POST', '/api/v1/contexts', { id: 'ctx-v', title: 'validation' }],
        [
          'POST',
          events,
          {
            events: [
              { ...turn, id: 'turn-v' },
              { kind: 'activity', activityType: 'blocker', id: 'blocker-v' },
            ],
          },
        ],
        ['POST', '/api/v1/contexts/ctx-v/tasks', { id: 'task-v' }],
        ['POST', '/api/v1/contexts/ctx-v/tasks', { id: 'task-done', state: 'completed' }],
      ];
      for (const [method, path, json] of setup) expect((await api.send(method, path, { json })).status).toBe(201);
    });
    afterAll(async () => {
      await api?.close();
    });

    it.each(REJECTIONS)('$name: $status naming "$names"', async ({ method, path, send, status, code, names }) => {
      const before = await api.stored();
      const reply = await api.send<ErrorReply>(method, path, send);
      expect(reply.status).toBe(status);
      expect(reply.contentType).toContain('application/json');
      expect(reply.body.error.code).toBe(code);
      expect(reply.body.error.message).toContain(names);
      expect(reply.body.error.details).toBeTypeOf('object');
      if (code === 'invalid_argument') expect(reply.body.error.details.issues?.length).toBeGreaterThan(0);
      expect(await api.stored()).toEqual(before);
    });

    it('is still healthy and still appends after every rejection', async () => {
      expect((await api.send('GET', '/healthz')).status).toBe(200);
      const ok = await api.send<{ seq: number }>('POST', events, { json: turn });
      expect(ok.status).toBe(201);
      expect((await api.allEvents('ctx-v')).at(-1)?.seq).toBe(ok.body.seq);
    });
  });
}
