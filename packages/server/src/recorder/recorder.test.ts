import { existsSync, readFileSync } from 'node:fs';
import { Actor as ActorSchema, type TurnEvent } from '@baton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Hub } from '../hub/hub.js';
import { postgresFactory } from '../test-support/databases.js';
import { hubTurns, memoryLogger, startTestHub, type TestHub } from '../test-support/recorder-harness.js';
import { HubSink } from './hub-sink.js';
import { createRecorder, promptIdOf, type RecorderOptions, responseIdOf } from './index.js';
import { jsonLine } from './journal.js';
import { RemoteSink } from './remote-sink.js';

const postgres = postgresFactory();
let testHub: TestHub;
let pgHub: { hub: Hub; cleanup: () => Promise<void> } | null = null;
beforeAll(async () => {
  testHub = await startTestHub();
  if (!postgres.unavailable) {
    const { store, cleanup } = await postgres.create();
    pgHub = { hub: new Hub(store), cleanup };
  }
});
afterAll(async () => {
  await testHub.close();
  await pgHub?.cleanup();
});

let threads = 0;
const SINKS: { name: string; skip: string | null; target: () => Pick<RecorderOptions, 'url' | 'hub'>; hub: () => Hub }[] = [
  { name: 'remote hub (REST, SQLite)', skip: null, target: () => ({ url: testHub.url }), hub: () => testHub.hub },
  { name: 'hub in this process (SQLite)', skip: null, target: () => ({ hub: testHub.hub }), hub: () => testHub.hub },
  {
    name: 'hub in this process (PostgreSQL)',
    skip: postgres.unavailable,
    target: () => ({ hub: (pgHub as { hub: Hub }).hub }),
    hub: () => (pgHub as { hub: Hub }).hub,
  },
];

for (const { name, skip, target, hub } of SINKS)
  describe.skipIf(skip !== null)(`recorder.call through a ${name}`, () => {
    const turnsOf = (contextId: string): Promise<TurnEvent[]> => hubTurns(hub(), contextId);
    function recorder(options: Partial<RecorderOptions> = {}) {
      const logger = memoryLogger();
      const contextId = `thread-${++threads}`;
      return { rec: createRecorder({ ...target(), contextId, logger, ...options }), contextId, logger };
    }

    it('journals the prompt before the provider is called, without waiting for the hub', async () => {
      const { rec, contextId } = recorder();
      const callId = rec.newCallId();
      let journalSeenByProvider = '';
      await rec.call({ callId, phase: 'plan' }, 'Plan the feature.', () => {
        journalSeenByProvider = rec.journalPath ? readFileSync(rec.journalPath, 'utf8') : '(no journal)';
        return 'The plan.';
      });
      if (name.startsWith('hub in this process')) {
        // A hub handed over in-process has no journal: prompts wait for it instead.
        expect(journalSeenByProvider).toBe('(no journal)');
      } else {
        expect(journalSeenByProvider).toContain(`"id":"${promptIdOf(callId)}"`);
      }
      await rec.close();
      expect((await turnsOf(contextId)).map((t) => t.id)).toEqual([promptIdOf(callId), responseIdOf(callId)]);
      if (rec.journalPath) expect(existsSync(rec.journalPath)).toBe(false);
    });

    it('with waitForPrompt: true, stores the prompt before the provider is called, then the response, and returns the result untouched', async () => {
      // A generous bound: this test is about order, and the machine may be busy.
      const { rec, contextId } = recorder({ defaults: { provider: 'anthropic' }, promptTimeoutMs: 10_000, waitForPrompt: true });
      const callId = rec.newCallId();
      let promptSeenByProvider: unknown = 'not looked';
      const result = await rec.call(
        { callId, phase: 'plan', round: 1, speaker: 'claude-planner', model: 'claude-sonnet-4-5-20250929', stepId: 'step-1' },
        'Plan the feature.',
        async () => {
          promptSeenByProvider = await hub().getEvent(promptIdOf(callId), {
            actor: { id: 't', name: null, runtime: null, role: 'user' },
            scopes: new Set(['read']),
            contextIds: null,
          });
          return { text: 'The plan.', tokens: [1200, 350] as const };
        },
        (r) => ({ content: r.text, usage: { inputTokens: r.tokens[0], outputTokens: r.tokens[1] } }),
      );
      expect(result).toEqual({ text: 'The plan.', tokens: [1200, 350] });
      expect(promptSeenByProvider).toMatchObject({ id: promptIdOf(callId), direction: 'prompt' });
      await rec.close();

      const turns = await turnsOf(contextId);
      expect(turns).toHaveLength(2);
      const [prompt, response] = turns;
      expect(prompt).toMatchObject({
        id: `${callId}.prompt`,
        direction: 'prompt',
        phase: 'plan',
        round: 1,
        speaker: 'claude-planner',
        provider: 'anthropic',
        model: 'claude-sonnet-4-5-20250929',
        stepId: 'step-1',
        parentId: null,
        content: [{ type: 'text', text: 'Plan the feature.' }],
        usage: null,
        error: null,
        metadata: { call: { id: callId } },
      });
      expect(response).toMatchObject({
        id: `${callId}.response`,
        direction: 'response',
        parentId: `${callId}.prompt`,
        phase: 'plan',
        stepId: 'step-1',
        content: [{ type: 'text', text: 'The plan.' }],
        // claude-sonnet-4-5 at $3 / $15 per million tokens.
        usage: { inputTokens: 1200, outputTokens: 350, costUsd: 0.00885 },
        error: null,
      });
      expect(response?.seq).toBeGreaterThan(prompt?.seq ?? Number.POSITIVE_INFINITY);
      expect(rec.stats()).toMatchObject({ calls: 1, turnsWritten: 2, failures: 0, turnsPending: 0 });
    });

    it('records tokens and cost as null when they are not known', async () => {
      const { rec, contextId } = recorder();
      await rec.call({ phase: 'review', model: 'some-unlisted-model' }, 'Review it.', () => 'Looks good.');
      await rec.call(
        { phase: 'review', model: 'some-unlisted-model' },
        'Again.',
        () => ({ verdict: 'ok' }),
        (r) => ({ content: r.verdict, usage: { inputTokens: 10, outputTokens: 2 } }),
      );
      await rec.close();
      const responses = (await turnsOf(contextId)).filter((t) => t.direction === 'response');
      expect(responses.map((t) => t.usage)).toEqual([
        { inputTokens: null, outputTokens: null, costUsd: null },
        { inputTokens: 10, outputTokens: 2, costUsd: null },
      ]);
    });

    it('keeps a non-text result as a JSON data block', async () => {
      const { rec, contextId } = recorder();
      const result = await rec.call({ phase: 'verify' }, 'Verify.', () => ({ passed: 3, failed: 0 }));
      await rec.close();
      expect(result).toEqual({ passed: 3, failed: 0 });
      const [, response] = await turnsOf(contextId);
      expect(response?.content).toEqual([{ type: 'data', data: { passed: 3, failed: 0 } }]);
    });

    it('records a failed provider call as the prompt plus an error response, and rethrows the very same error', async () => {
      const { rec, contextId } = recorder();
      const failure = Object.assign(new Error('529 overloaded'), { status: 529 });
      const callId = rec.newCallId();
      await expect(rec.call({ callId, phase: 'execute' }, 'Do it.', () => Promise.reject(failure))).rejects.toBe(failure);
      await expect(
        rec.call({ phase: 'execute' }, 'Do it again.', () => {
          throw 'a thrown string';
        }),
      ).rejects.toBe('a thrown string');
      await rec.close();
      const turns = await turnsOf(contextId);
      expect(turns.map((t) => t.direction)).toEqual(['prompt', 'response', 'prompt', 'response']);
      expect(turns[1]).toMatchObject({
        id: responseIdOf(callId),
        parentId: promptIdOf(callId),
        error: { message: 'Error: 529 overloaded', code: 'http_529' },
        content: [{ type: 'text', text: 'The provider call failed: Error: 529 overloaded' }],
        usage: null,
      });
      expect(turns[3]?.error).toEqual({ message: 'a thrown string', code: null });
      expect(rec.stats()).toMatchObject({ calls: 2, providerErrors: 2, failures: 0 });
    });

    it('threads calls: parentId on the prompt, refs, and ids chosen up front', async () => {
      const { rec, contextId } = recorder({ defaults: { phase: 'plan' } });
      const plan = rec.newCallId();
      await rec.call({ callId: plan, speaker: 'planner' }, 'Plan.', () => 'A plan.');
      const critique = rec.newCallId();
      await rec.call({ callId: critique, speaker: 'critic', parentId: responseIdOf(plan) }, 'Critique the plan.', () => 'A critique.');
      await rec.call({ speaker: 'adjudicator', refs: [responseIdOf(critique)] }, 'Decide.', () => 'Decision.');
      await rec.close();
      const turns = await turnsOf(contextId);
      expect(turns.map((t) => [t.speaker, t.direction, t.parentId])).toEqual([
        ['planner', 'prompt', null],
        ['planner', 'response', promptIdOf(plan)],
        ['critic', 'prompt', responseIdOf(plan)],
        ['critic', 'response', promptIdOf(critique)],
        ['adjudicator', 'prompt', null],
        ['adjudicator', 'response', turns[4]?.id],
      ]);
      expect(turns[4]?.refs).toEqual([responseIdOf(critique)]);
      expect(await rec.conversation(critique)).toMatchObject({
        callId: critique,
        prompt: { id: promptIdOf(critique) },
        response: { id: responseIdOf(critique) },
      });
    });

    it('applies scope metadata to calls inside it; the call itself overrides, a scope callId names only its first call', async () => {
      const { rec, contextId } = recorder({ defaults: { speaker: 'default-speaker', round: 0 } });
      const named = rec.newCallId();
      await rec.scope({ phase: 'review', stepId: 'review-1', callId: named }, async () => {
        await rec.call({}, 'first', () => 'one');
        await rec.scope({ round: 2 }, () => rec.call({ speaker: 'override' }, 'second', () => 'two'));
      });
      await rec.close();
      const prompts = (await turnsOf(contextId)).filter((t) => t.direction === 'prompt');
      expect(prompts.map((t) => [t.id === promptIdOf(named), t.phase, t.stepId, t.speaker, t.round])).toEqual([
        [true, 'review', 'review-1', 'default-speaker', 0],
        [false, 'review', 'review-1', 'override', 2],
      ]);
    });

    it('swallows invalid data: the pipeline gets its result, the turns are logged and counted', async () => {
      const { rec, contextId, logger } = recorder();
      const result = await rec.call({ phase: 'bad\nphase' }, 'prompt', () => 'answer');
      expect(result).toBe('answer');
      await rec.call({ phase: 'good' }, 'prompt', () => 'answer');
      await rec.close();
      expect(rec.stats()).toMatchObject({ calls: 2, turnsRejected: 2, turnsWritten: 2, failures: 2 });
      expect(logger.entries.filter((e) => e.level === 'error').map((e) => e.message)).toEqual([
        'a turn is invalid and will not be recorded',
        'a turn is invalid and will not be recorded',
      ]);
      expect((await turnsOf(contextId)).map((t) => t.phase)).toEqual(['good', 'good']);
    });

    it('truncates a turn over the size limit instead of losing it', async () => {
      const { rec, contextId } = recorder({ maxTurnBytes: 20_000 });
      await rec.call({}, 'x'.repeat(50_000), () => 'short answer');
      await rec.close();
      const [prompt] = await turnsOf(contextId);
      const block = prompt?.content[0];
      expect(block?.type === 'text' && block.text.length).toBeLessThan(20_000);
      expect(block?.type === 'text' && block.text.endsWith('[… truncated by the recorder]')).toBe(true);
      expect(prompt?.metadata.truncated).toEqual({ originalBytes: 50_000 });
    });

    it('with waitForPrompt: false still stores both turns in order', async () => {
      const { rec, contextId } = recorder({ waitForPrompt: false });
      for (let i = 0; i < 5; i++) await rec.call({ round: i }, `prompt ${i}`, () => `answer ${i}`);
      await rec.close();
      const turns = await turnsOf(contextId);
      expect(turns.map((t) => `${t.round}:${t.direction}`)).toEqual([0, 1, 2, 3, 4].flatMap((i) => [`${i}:prompt`, `${i}:response`]));
    });
  });

describe('createRecorder', () => {
  it('rejects a misconfiguration at once, naming the field', () => {
    expect(() => createRecorder({ contextId: 'x' })).toThrow(/exactly one of url, dataDir or hub/);
    expect(() => createRecorder({ contextId: 'x', url: 'http://127.0.0.1:1', dataDir: '/tmp/x' })).toThrow(/exactly one/);
    expect(() => createRecorder({ contextId: 'not a valid id!', url: 'http://127.0.0.1:1' })).toThrow(/contextId/);
  });
});

describe('turn sinks', () => {
  it('store a batch given as objects or as JSON lines, whichever form they prefer', async () => {
    const actor = { id: 'sink-test', role: 'agent' as const };
    const sinks = [new RemoteSink({ url: testHub.url, actor, writeTimeoutMs: 5000 }), HubSink.over(testHub.hub, ActorSchema.parse(actor))];
    for (const [n, sink] of sinks.entries()) {
      const contextId = `sink-forms-${n}`;
      await sink.ensureContext(contextId, { title: 'forms' });
      const turn = (id: string, text: string) => ({
        id,
        kind: 'turn' as const,
        direction: 'prompt' as const,
        content: [{ type: 'text' as const, text }],
      });
      await sink.append(contextId, { turns: [turn(`${contextId}-a`, 'as an object')] });
      await sink.append(contextId, { json: [jsonLine(turn(`${contextId}-b`, 'as JSON bytes, ünïcode'))] });
      const stored = await hubTurns(testHub.hub, contextId);
      expect(stored.map((t) => [t.id, t.content])).toEqual([
        [`${contextId}-a`, [{ type: 'text', text: 'as an object' }]],
        [`${contextId}-b`, [{ type: 'text', text: 'as JSON bytes, ünïcode' }]],
      ]);
    }
  });
});
