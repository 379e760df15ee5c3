import type { Event, EventPage } from '@baton/core';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, type ErrorReply, startApiServer } from '../test-support/api-harness.js';
import { storeFactories } from '../test-support/databases.js';

/**
 * GET /contexts/:id/events?preview=N: lists with each event's content cut to
 * about N characters (the web UI's Conversations tab lists a 10,000-turn
 * thread this way, so a 5 MB turn is not shipped until "Show full"), the cut
 * events named with their full size.
 */
const unit = 'Zürich “quoted” 🙂 line\n';
const big = unit.repeat(Math.ceil((5 * 1024 * 1024) / unit.length));
const lines = (text: string) => text.split('\n').length;

const turns = [
  { id: 'small', kind: 'turn', direction: 'prompt', content: [{ type: 'text', text: 'short' }] },
  { id: 'big', kind: 'turn', direction: 'response', content: [{ type: 'text', text: big }] },
  {
    id: 'mixed',
    kind: 'turn',
    direction: 'response',
    content: [
      { type: 'thinking', thinking: 'a'.repeat(40) },
      { type: 'tool_use', id: 't1', name: 'read', input: { path: 'x'.repeat(200) } },
      { type: 'text', text: 'after the tool' },
    ],
  },
  {
    id: 'result',
    kind: 'turn',
    direction: 'prompt',
    content: [{ type: 'tool_result', toolUseId: 't1', content: [{ type: 'text', text: 'r'.repeat(300) }] }],
  },
  { id: 'note', kind: 'note', noteType: 'status', title: 'n', content: [{ type: 'text', text: 'n'.repeat(500) }] },
];

for (const factory of storeFactories()) {
  describe.skipIf(factory.unavailable !== null)(`GET /contexts/:id/events?preview: ${factory.name}`, () => {
    let api: ApiHarness;
    beforeAll(async () => {
      api = await startApiServer(factory);
      await api.send('POST', '/api/v1/contexts', { json: { id: 'preview-ctx' } });
      const appended = await api.send('POST', '/api/v1/contexts/preview-ctx/events', { json: { events: turns } });
      expect(appended.status).toBe(201);
    });
    afterAll(async () => {
      await api?.close();
    });

    it('cuts content to the budget, keeps kinds and order, and names each cut event with its full size', async () => {
      const full = await api.send<EventPage>('GET', '/api/v1/contexts/preview-ctx/events');
      const page = await api.send<EventPage>('GET', '/api/v1/contexts/preview-ctx/events?preview=101');
      expect(page.status).toBe(200);
      const byId = new Map(page.body.events.map((e) => [e.id, e]));
      // Same events, same seqs and cursors: only content differs.
      expect(page.body.events.map((e) => [e.id, e.seq])).toEqual(full.body.events.map((e) => [e.id, e.seq]));
      expect(page.body.nextAfter).toBe(full.body.nextAfter);
      expect(page.body.hasMore).toBe(false);
      expect(byId.get('small')).toEqual(full.body.events.find((e) => e.id === 'small'));

      // The 5 MB turn: its first 101 characters, less half of a surrogate pair (🙂) the cut would split.
      const cutBig = byId.get('big')?.content[0];
      expect(cutBig?.type).toBe('text');
      const text = cutBig?.type === 'text' ? cutBig.text : '';
      expect(big.startsWith(text)).toBe(true);
      expect(text.length).toBeGreaterThanOrEqual(100);
      expect(text.length).toBeLessThanOrEqual(101);
      expect(text).not.toMatch(/[\uD800-\uDBFF]$/);
      expect(JSON.stringify(page.body).length).toBeLessThan(10_000);

      // Whole blocks while they fit; the tool call that does not becomes its JSON, cut and fenced; the rest dropped.
      const mixed = byId.get('mixed')?.content ?? [];
      expect(mixed[0]).toEqual({ type: 'thinking', thinking: 'a'.repeat(40) });
      expect(mixed).toHaveLength(2);
      expect(mixed[1]?.type === 'text' && mixed[1].text).toBe(
        `\`\`\`json\n${JSON.stringify({ path: 'x'.repeat(200) }, null, 2).slice(0, 61)}\n\`\`\``,
      );
      expect(byId.get('result')?.content).toEqual([
        { type: 'tool_result', toolUseId: 't1', isError: false, content: [{ type: 'text', text: 'r'.repeat(101) }] },
      ]);
      // Notes are listed the same way.
      expect(byId.get('note')?.content).toEqual([{ type: 'text', text: 'n'.repeat(101) }]);

      const toolJson = JSON.stringify({ path: 'x'.repeat(200) }, null, 2);
      expect(page.body.cut).toEqual([
        { id: 'big', chars: big.length, lines: lines(big) },
        { id: 'mixed', chars: 40 + toolJson.length + 'after the tool'.length, lines: 1 + lines(toolJson) + 1 },
        { id: 'result', chars: 300, lines: 1 },
        { id: 'note', chars: 500, lines: 1 },
      ]);
      // The full event is one GET away.
      const one = await api.send<Event>('GET', '/api/v1/events/big');
      expect(one.body.content).toEqual([{ type: 'text', text: big }]);
    });

    it('lists nothing as cut when everything fits, and leaves listings without preview as they were', async () => {
      const roomy = await api.send<EventPage>('GET', '/api/v1/contexts/preview-ctx/events?after=2&preview=1000');
      expect(roomy.body.events.map((e) => e.id)).toEqual(['mixed', 'result', 'note']);
      expect(roomy.body.cut).toEqual([]);
      const plain = await api.send<EventPage>('GET', '/api/v1/contexts/preview-ctx/events?after=1&limit=1');
      expect(plain.body).not.toHaveProperty('cut');
      expect(plain.body.events[0]?.content).toEqual([{ type: 'text', text: big }]);
      // With the other parameters: one page, backwards.
      const tail = await api.send<EventPage>('GET', '/api/v1/contexts/preview-ctx/events?tail=2&preview=10');
      expect(tail.body.events.map((e) => e.id)).toEqual(['result', 'note']);
      expect(tail.body.cut?.map((c) => c.id)).toEqual(['result', 'note']);
    });

    it.each(['0', '-5', 'abc', '1.5', '1000001'])('answers 400 naming preview to preview=%s', async (value) => {
      const reply = await api.send<ErrorReply>('GET', `/api/v1/contexts/preview-ctx/events?preview=${value}`);
      expect(reply.status).toBe(400);
      expect(reply.body.error.code).toBe('invalid_argument');
      expect(reply.body.error.message).toContain('preview');
      expect(reply.body.error.details.issues?.map((i) => i.path)).toContain('preview');
    });

    it('is in the OpenAPI document, and a preview reply matches its schema', async () => {
      const doc = (await api.send<OpenApi>('GET', '/api/v1/openapi.json')).body;
      const list = doc.paths['/contexts/{id}/events']?.get;
      expect(list?.parameters?.find((p) => p.name === 'preview')).toMatchObject({ in: 'query', required: false });
      const ajv = new Ajv2020({ strict: false, allErrors: true });
      addFormats.default(ajv);
      ajv.addSchema(doc, 'openapi');
      const validate = ajv.getSchema('openapi#/paths/~1contexts~1{id}~1events/get/responses/200/content/application~1json/schema');
      const reply = await api.send('GET', '/api/v1/contexts/preview-ctx/events?preview=50');
      expect(validate?.(reply.body), ajv.errorsText(validate?.errors)).toBe(true);
    });
  });
}

interface OpenApi {
  paths: Record<string, Record<string, { parameters?: { name: string; in: string; required?: boolean }[] }>>;
}
