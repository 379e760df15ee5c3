import { BatonError, type SearchResult } from '@baton/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Caller, localCaller } from '../hub/caller.js';
import { Hub } from '../hub/hub.js';
import type { HubSearchOptions } from '../hub/search.js';
import type { Store } from '../store/store.js';
import { storeFactories } from '../test-support/databases.js';
import { deadProviderUrl, type EmbeddingProvider, startEmbeddingProvider } from '../test-support/embedding-provider.js';
import { OpenAiEmbedder } from './embedder.js';
import { RRF_K } from './fusion.js';

const alice: Caller = localCaller({ id: 'alice', name: 'Alice', runtime: 'claude-code', role: 'agent' });
const bob: Caller = localCaller({ id: 'bob', name: 'Bob', runtime: 'codex', role: 'agent' });
const text = (t: string) => [{ type: 'text' as const, text: t }];
const turn = (t: string, extra: Record<string, unknown> = {}) => ({ kind: 'turn', direction: 'response', content: text(t), ...extra });

/** Fast retries and pokes, so tests wait milliseconds rather than the production seconds. */
const FAST = { debounceMs: 10, backoffMs: 50, maxBackoffMs: 200, pollMs: 200 };

for (const factory of storeFactories()) {
  describe.skipIf(factory.unavailable !== null)(`semantic search: ${factory.name}`, () => {
    let store: Store;
    let provider: EmbeddingProvider;
    let cleanup: () => Promise<void>;
    const hubs: Hub[] = [];

    const searchOptions = (model = 'test-embed', url = provider.url, tuning: HubSearchOptions['embedding'] = {}): HubSearchOptions => ({
      embedder: new OpenAiEmbedder({ url, model, key: 'sk-test', dimensions: undefined }),
      embedding: { ...FAST, ...tuning },
    });
    /** A hub over the test's store; with `search`, semantic search on and indexing started. */
    const openHub = (search?: HubSearchOptions): Hub => {
      const hub = new Hub(store, search ? { search } : {});
      if (search) hub.search.startIndexing((listener) => hub.onAppend(listener));
      hubs.push(hub);
      return hub;
    };
    const embeddedAll = async (hub: Hub) => {
      await expect
        .poll(
          async () => {
            const p = await hub.search.embeddings?.progress();
            return p !== undefined && p.fromSeq === 0 && p.indexedSeq === p.headSeq;
          },
          { timeout: 10_000, interval: 20 },
        )
        .toBe(true);
    };

    beforeEach(async () => {
      const created = await factory.create();
      store = created.store;
      cleanup = created.cleanup;
      provider = await startEmbeddingProvider();
    });
    afterEach(async () => {
      for (const hub of hubs.splice(0)) await hub.search.stopIndexing();
      await provider.close();
      await cleanup();
    });

    it('finds by meaning an event that shares no word with the query, where full text finds nothing', async () => {
      const hub = openHub(searchOptions());
      await hub.createContext({ id: 'ctx' }, alice);
      const { events } = await hub.appendEvents(
        'ctx',
        [turn('The vehicle would not start this morning.'), turn('We postponed the schema migration.'), turn('Lunch was pizza again.')],
        alice,
      );
      await embeddedAll(hub);

      const textOnly = await hub.search.search({ q: 'automobile', mode: 'text' }, alice);
      expect(textOnly.hits).toEqual([]);
      expect(textOnly).toMatchObject({ mode: 'text', semantic: { status: 'off' } });

      const hybrid = await hub.search.search({ q: 'automobile' }, alice);
      expect(hybrid.mode).toBe('hybrid');
      expect(hybrid.semantic).toEqual({ status: 'used', index: { fromSeq: 0, indexedSeq: 3, headSeq: 3, complete: true } });
      expect(hybrid.hits[0]?.event.id).toBe(events[0]?.id);
      // No word matched: the snippet is the passage from its start.
      expect(hybrid.hits[0]?.snippet).toBe('The vehicle would not start this morning.');
      expect(hybrid.hits[0]?.score).toBeCloseTo(1 / (RRF_K + 1), 6);

      const semantic = await hub.search.search({ q: 'automobile', mode: 'semantic' }, alice);
      expect(semantic.hits[0]?.event.id).toBe(events[0]?.id);
      expect(semantic.hits[0]?.score).toBeGreaterThan(0.6);
      expect(semantic.hits[1]?.score).toBeLessThan(0.2);

      const asked = provider.requests.at(-1);
      expect(asked).toMatchObject({ model: 'test-embed', authorization: 'Bearer sk-test', input: ['automobile'] });
      // The query's vector is remembered: asking again costs the provider nothing.
      const before = provider.requests.length;
      await hub.search.search({ q: 'automobile' }, alice);
      expect(provider.requests.length).toBe(before);
    });

    it('fuses the full-text and vector rankings by reciprocal rank (k = 60)', async () => {
      const hub = openHub(searchOptions());
      await hub.createContext({ id: 'ctx' }, alice);
      await hub.appendEvents(
        'ctx',
        [
          turn('the car is red'),
          turn('automobile automobile vehicle'),
          turn('car pizza lunch dinner meal'),
          turn('a truck'),
          turn('the invoice is late'),
          turn('rain all day'),
        ],
        alice,
      );
      await embeddedAll(hub);
      const ranks = (result: SearchResult) => new Map(result.hits.map((h, i) => [h.event.seq, i + 1]));
      const textRanks = ranks(await hub.search.search({ q: 'car', mode: 'text', limit: 100 }, alice));
      const vectorRanks = ranks(await hub.search.search({ q: 'car', mode: 'semantic', limit: 100 }, alice));
      expect(textRanks.size).toBe(2);
      expect(vectorRanks.size).toBe(6);
      const expected = [...vectorRanks.keys()]
        .map((seq) => {
          const t = textRanks.get(seq);
          const v = vectorRanks.get(seq) as number;
          return { seq, score: (t ? 1 / (RRF_K + t) : 0) + 1 / (RRF_K + v) };
        })
        .sort((a, b) => b.score - a.score);
      const hybrid = await hub.search.search({ q: 'car', mode: 'hybrid' }, alice);
      expect(hybrid.hits.map((h) => h.event.seq)).toEqual(expected.map((e) => e.seq));
      for (const [i, hit] of hybrid.hits.entries()) expect(hit.score).toBeCloseTo(expected[i]?.score as number, 10);
      // In both lists beats first in one: the two events with "car" lead.
      expect(
        hybrid.hits
          .slice(0, 2)
          .map((h) => h.snippet)
          .sort(),
      ).toEqual(['the «car» is red', '«car» pizza lunch dinner meal'].sort());
    });

    it('applies the same filters to vectors: context, kind, type, actor, phase, time and privacy', async () => {
      const hub = openHub(searchOptions());
      await hub.createContext({ id: 'ctx' }, alice);
      await hub.createContext({ id: 'other' }, alice);
      await hub.appendEvents(
        'ctx',
        [
          turn('kitten plan', { phase: 'plan' }),
          turn('kitten review', { phase: 'review' }),
          { kind: 'note', noteType: 'decision', title: 'kitten decision' },
          { kind: 'activity', activityType: 'blocker', content: text('kitten blocker') },
          { kind: 'note', noteType: 'discovery', title: 'kitten secret', visibility: 'private' },
        ],
        alice,
      );
      await hub.appendEvent('other', turn('kitten elsewhere'), bob);
      await embeddedAll(hub);
      const found = async (extra: Record<string, unknown>, caller = alice) =>
        (await hub.search.search({ q: 'feline', mode: 'semantic', ...extra }, caller)).hits.map((h) => h.snippet).sort();
      expect(await found({})).toHaveLength(6);
      expect(await found({ context: 'other' })).toEqual(['kitten elsewhere']);
      expect(await found({ kind: 'note' })).toEqual(['kitten decision', 'kitten secret']);
      expect(await found({ type: 'blocker' })).toEqual(['kitten blocker']);
      expect(await found({ actor: 'bob' })).toEqual(['kitten elsewhere']);
      expect(await found({ phase: 'review' })).toEqual(['kitten review']);
      expect(await found({ since: '2999-01-01T00:00:00Z' })).toEqual([]);
      expect(await found({ until: '2999-01-01T00:00:00Z' })).toHaveLength(6);
      expect(await found({}, bob)).not.toContain('kitten secret');
      expect(await found({}, bob)).toHaveLength(5);
      expect(await found({ limit: 2 })).toHaveLength(2);
    });

    it('backfills events appended before embeddings were on, newest first, while new events go first', async () => {
      const before = openHub();
      await before.createContext({ id: 'ctx' }, alice);
      await before.appendEvents(
        'ctx',
        Array.from({ length: 20 }, (_, i) => turn(i === 0 ? 'the oldest note is about a kitten' : `filler number ${i}`)),
        alice,
      );
      await before.search.search({ q: 'kitten' }, alice);
      expect(provider.requests).toHaveLength(0);

      const hub = openHub(searchOptions('test-embed', provider.url, { batchEvents: 5 }));
      await embeddedAll(hub);
      // Backfill walks down from the newest event, five at a time.
      expect(provider.requests[0]?.input).toEqual([
        'filler number 19',
        'filler number 18',
        'filler number 17',
        'filler number 16',
        'filler number 15',
      ]);
      expect(provider.requests.at(-1)?.input.at(-1)).toBe('the oldest note is about a kitten');
      const { hits } = await hub.search.search({ q: 'feline', mode: 'semantic', limit: 1 }, alice);
      expect(hits[0]?.snippet).toBe('the oldest note is about a kitten');

      const { event: fresh } = await hub.appendEvent('ctx', turn('a new release shipped'), alice);
      await embeddedAll(hub);
      expect((await hub.search.search({ q: 'deploy', mode: 'semantic', limit: 1 }, alice)).hits[0]?.event.id).toBe(fresh.id);
      // Each event once; the other two texts are the queries.
      expect(provider.embedded()).toHaveLength(23);
      expect(new Set(provider.embedded()).size).toBe(23);
    });

    it('keeps appending and answers from full text while the provider is down, then catches up', async () => {
      provider.failWith = 503;
      provider.retryAfter = 0;
      const hub = openHub(searchOptions());
      await hub.createContext({ id: 'ctx' }, alice);
      const started = performance.now();
      const { event: car } = await hub.appendEvent('ctx', turn('the car broke on the way'), alice);
      await hub.appendEvents('ctx', [turn('a kitten slept'), turn('the car again')], alice);
      expect(performance.now() - started).toBeLessThan(1_000);
      await expect.poll(() => hub.search.embeddings?.lastError?.message ?? '', { timeout: 5_000 }).toContain('503');

      const down = await hub.search.search({ q: 'car broke' }, alice);
      expect(down.mode).toBe('hybrid');
      expect(down.semantic.status).toBe('unavailable');
      expect(down.semantic.reason).toContain('503');
      expect(down.semantic.index?.complete).toBe(false);
      expect(down.hits.map((h) => h.event.id)).toEqual([car.id]);
      expect(down.hits[0]?.snippet).toBe('the «car» «broke» on the way');
      const semanticDown = await hub.search.search({ q: 'car', mode: 'semantic' }, alice);
      expect(semanticDown.semantic.status).toBe('unavailable');
      expect(semanticDown.hits).toHaveLength(2);

      provider.failWith = null;
      await embeddedAll(hub);
      await expect.poll(() => hub.search.embeddings?.lastError).toBeNull();
      const up = await hub.search.search({ q: 'automobile', mode: 'semantic', limit: 2 }, alice);
      expect(up.semantic.status).toBe('used');
      expect(up.hits.map((h) => h.event.content[0])).toEqual(expect.arrayContaining([text('the car again')[0]]));
    });

    it('answers from full text when nothing listens at the provider URL', async () => {
      const hub = openHub(searchOptions('test-embed', await deadProviderUrl()));
      await hub.createContext({ id: 'ctx' }, alice);
      await hub.appendEvent('ctx', turn('the database is slow'), alice);
      const result = await hub.search.search({ q: 'database' }, alice);
      expect(result.semantic.status).toBe('unavailable');
      expect(result.semantic.reason).toContain('ECONNREFUSED');
      expect(result.hits).toHaveLength(1);
      expect((await hub.listEvents('ctx', {}, alice)).events).toHaveLength(1);
    });

    it('skips a passage the provider refuses and embeds the rest', async () => {
      provider.refuse = 'POISON';
      const hub = openHub(searchOptions());
      await hub.createContext({ id: 'ctx' }, alice);
      await hub.appendEvents('ctx', [turn('a kitten'), turn('POISON pill'), turn('a truck')], alice);
      await embeddedAll(hub);
      expect(provider.embedded().sort()).toEqual(['a kitten', 'a truck']);
      expect((await hub.search.search({ q: 'cat', mode: 'semantic' }, alice)).hits).toHaveLength(2);
    });

    it('embeds each passage once when two indexers share the store (a lease)', async () => {
      const first = openHub(searchOptions());
      await first.createContext({ id: 'ctx' }, alice);
      await first.appendEvents(
        'ctx',
        Array.from({ length: 60 }, (_, i) => turn(`event number ${i}`)),
        alice,
      );
      provider.delayMs = 20;
      const second = openHub(searchOptions('test-embed', provider.url));
      await first.appendEvents(
        'ctx',
        Array.from({ length: 60 }, (_, i) => turn(`later event ${i}`)),
        alice,
      );
      await embeddedAll(first);
      await embeddedAll(second);
      const texts = provider.embedded();
      expect(texts).toHaveLength(120);
      expect(new Set(texts).size).toBe(120);
    });

    it('starts over when the model changes, then drops the old vectors', async () => {
      const one = openHub(searchOptions('model-one'));
      await one.createContext({ id: 'ctx' }, alice);
      await one.appendEvents('ctx', [turn('a kitten'), turn('a truck')], alice);
      await embeddedAll(one);
      await one.search.stopIndexing();

      const two = openHub(searchOptions('model-two'));
      await embeddedAll(two);
      expect(
        provider.requests
          .filter((r) => r.model === 'model-two')
          .flatMap((r) => r.input)
          .sort(),
      ).toEqual(['a kitten', 'a truck']);
      const unit = Float32Array.from({ length: 32 }, (_, i) => (i === 4 ? 1 : 0));
      const old = await store.searchVectors({ space: 'model-one', vector: unit, viewerKey: null, limit: 10 });
      expect(old).toEqual([]);
      expect(await store.embeddingProgress('model-one')).toMatchObject({ fromSeq: 0, indexedSeq: 0 });
      const now = await store.searchVectors({ space: 'model-two', vector: unit, viewerKey: null, limit: 10 });
      expect(now[0]?.event.content).toEqual(text('a kitten'));
    });

    it('forgets the vectors of a deleted context', async () => {
      const hub = openHub(searchOptions());
      await hub.createContext({ id: 'ctx' }, alice);
      await hub.appendEvent('ctx', turn('ephemeral kitten'), alice);
      await embeddedAll(hub);
      const unit = Float32Array.from({ length: 32 }, (_, i) => (i === 4 ? 1 : 0));
      expect(await store.searchVectors({ space: 'test-embed', vector: unit, viewerKey: null, limit: 10 })).toHaveLength(1);
      await hub.deleteContext('ctx', alice);
      expect(await store.searchVectors({ space: 'test-embed', vector: unit, viewerKey: null, limit: 10 })).toEqual([]);
    });

    it('extends coverage only at its borders, and a lease keeps a second owner out', async () => {
      const hub = openHub();
      await hub.createContext({ id: 'ctx' }, alice);
      await hub.appendEvents('ctx', [turn('one'), turn('two'), turn('three'), turn('four')], alice);
      const v = (seq: number) => ({ seq, chunk: 0, vector: Float32Array.from([1, 0]) });
      const claimed = await store.write((tx) => tx.claimEmbedding('s', 'me', 1_000, 61_000));
      expect(claimed).toEqual({ fromSeq: 4, indexedSeq: 4, headSeq: 4, dims: null });
      expect(await store.write((tx) => tx.claimEmbedding('s', 'you', 2_000, 62_000))).toBeNull();
      expect(await store.write((tx) => tx.storeVectors('s', { afterSeq: 1, upToSeq: 3 }, [v(2), v(3)], 3_000))).toBeNull();
      expect(await store.write((tx) => tx.storeVectors('s', { afterSeq: 2, upToSeq: 4 }, [v(3), v(4)], 3_000))).toBe(2);
      expect(await store.write((tx) => tx.storeVectors('s', { afterSeq: 0, upToSeq: 2 }, [v(1), v(2)], 3_000))).toBe(2);
      expect(await store.embeddingProgress('s')).toEqual({ fromSeq: 0, indexedSeq: 4, headSeq: 4, dims: 2 });
      // An expired lease passes to whoever asks; a released one too.
      expect(await store.write((tx) => tx.claimEmbedding('s', 'you', 70_000, 130_000))).toMatchObject({ fromSeq: 0, indexedSeq: 4 });
      await store.write((tx) => tx.releaseEmbedding('s', 'you'));
      expect(await store.write((tx) => tx.claimEmbedding('s', 'me', 71_000, 131_000))).not.toBeNull();
      const hits = await store.searchVectors({ space: 's', vector: Float32Array.from([1, 0]), viewerKey: null, limit: 3 });
      expect(hits.map((h) => h.event.seq)).toEqual([4, 3, 2]);
      expect(hits[0]?.score).toBeCloseTo(1, 6);
    });

    it('is off without a provider: text search, no requests, and semantic modes refused naming the field', async () => {
      const hub = openHub();
      hub.search.startIndexing((listener) => hub.onAppend(listener));
      await hub.createContext({ id: 'ctx' }, alice);
      await hub.appendEvent('ctx', turn('the database is slow'), alice);
      const result = await hub.search.search({ q: 'database' }, alice);
      expect(result).toMatchObject({ mode: 'text', semantic: { status: 'off' } });
      expect(result.hits).toHaveLength(1);
      for (const mode of ['hybrid', 'semantic']) {
        const error = (await hub.search.search({ q: 'database', mode }, alice).catch((e: unknown) => e)) as BatonError;
        expect(error).toBeInstanceOf(BatonError);
        expect(error.code).toBe('invalid_argument');
        expect(error.details?.issues).toEqual([expect.objectContaining({ path: 'mode' })]);
      }
      const bad = (await hub.search.search({ q: 'database', mode: 'fuzzy' }, alice).catch((e: unknown) => e)) as BatonError;
      expect(bad.code).toBe('invalid_argument');
      expect(bad.message).toContain('mode');
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(provider.requests).toHaveLength(0);
    });
  });
}
