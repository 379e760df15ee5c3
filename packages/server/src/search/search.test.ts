import { BatonError } from '@baton/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Caller, localCaller } from '../hub/caller.js';
import { Hub } from '../hub/hub.js';
import { storeFactories } from '../test-support/databases.js';

const alice: Caller = localCaller({ id: 'alice', name: 'Alice', runtime: 'claude-code', role: 'agent' });
const bob: Caller = localCaller({ id: 'bob', name: 'Bob', runtime: 'codex', role: 'agent' });
const text = (t: string) => [{ type: 'text' as const, text: t }];
const turn = (t: string, extra: Record<string, unknown> = {}) => ({ kind: 'turn', direction: 'response', content: text(t), ...extra });

for (const factory of storeFactories()) {
  describe.skipIf(factory.unavailable !== null)(`search: ${factory.name}`, () => {
    let hub: Hub;
    let cleanup: () => Promise<void>;

    beforeEach(async () => {
      const created = await factory.create();
      cleanup = created.cleanup;
      hub = new Hub(created.store);
      await hub.createContext({ id: 'ctx', title: 'Search' }, alice);
    });
    afterEach(async () => {
      await hub.search.stopIndexing();
      await cleanup();
    });

    const first = async (q: string, extra: Record<string, unknown> = {}, caller = alice) => {
      const result = await hub.search.search({ q, ...extra }, caller);
      return result.hits[0];
    };

    it('finds Japanese, Chinese, Arabic, English and accented Latin text, with highlighted snippets', async () => {
      const { events } = await hub.appendEvents(
        'ctx',
        [
          turn('昨日の会議で、データベースの移行を来週に延期することを決めました。'),
          turn('我们决定把数据库迁移推迟到下周，因为备份还没有完成。'),
          turn('قررنا تأجيل ترحيل قاعدة البيانات إلى الأسبوع المقبل.'),
          turn('We postponed the database migration until the backups finish.'),
          turn('Le café de la réunion était excellent; la migration attendra.'),
        ],
        alice,
      );
      const [ja, zh, ar, en, fr] = events.map((e) => e.id);

      const jaHit = await first('データベースの移行');
      expect(jaHit?.event.id).toBe(ja);
      expect(jaHit?.snippet).toContain('«データベース»«の»«移行»');
      expect((await first('延期'))?.event.id).toBe(ja);

      const zhHit = await first('数据库迁移');
      expect(zhHit?.event.id).toBe(zh);
      expect(zhHit?.snippet).toContain('«迁移»');
      // Two characters, below a trigram index's reach: segmentation finds it.
      expect((await first('备份'))?.event.id).toBe(zh);

      const arHit = await first('قاعدة البيانات');
      expect(arHit?.event.id).toBe(ar);
      expect(arHit?.snippet).toContain('«قاعدة» «البيانات»');
      // Short vowels (harakat) in the query do not prevent a match.
      expect((await first('قَاعِدَة'))?.event.id).toBe(ar);

      const enHit = await first('Database MIGRATION');
      expect(enHit?.event.id).toBe(en);
      expect(enHit?.snippet).toBe('We postponed the «database» «migration» until the backups finish.');

      expect((await first('cafe reunion'))?.event.id).toBe(fr);
      expect((await first('café'))?.snippet).toContain('«café»');
    });

    it('ranks events with more and closer matches first, each with a score', async () => {
      const filler = 'Unrelated words about lunch, weather and trains. '.repeat(40);
      await hub.appendEvents(
        'ctx',
        [
          turn(`${filler} The deploy happened. ${filler} There was also a rollback.`),
          turn('Deploy rollback: the deploy failed, so we ran the rollback and the deploy again.'),
          turn(`${filler} deploy`),
        ],
        alice,
      );
      const { hits } = await hub.search.search({ q: 'deploy rollback' }, alice);
      expect(hits).toHaveLength(2);
      expect(hits[0]?.event.content).toEqual(text('Deploy rollback: the deploy failed, so we ran the rollback and the deploy again.'));
      expect(hits[0]?.score).toBeGreaterThan(hits[1]?.score ?? Number.POSITIVE_INFINITY);
      const phrase = await hub.search.search({ q: '"rollback deploy"' }, alice);
      expect(phrase.hits).toHaveLength(0);
    });

    it('filters by context, kind, type, actor, phase and time, and keeps private events to their runtime', async () => {
      await hub.createContext({ id: 'other', title: 'Other' }, alice);
      await hub.appendEvents(
        'ctx',
        [
          turn('kiwi plan', { phase: 'plan' }),
          turn('kiwi review', { phase: 'review' }),
          { kind: 'note', noteType: 'decision', title: 'kiwi decision' },
          { kind: 'activity', activityType: 'blocker', content: text('kiwi blocker') },
          { kind: 'note', noteType: 'discovery', title: 'kiwi secret', visibility: 'private' },
        ],
        alice,
      );
      await hub.appendEvent('other', turn('kiwi elsewhere'), bob);
      const titles = async (extra: Record<string, unknown>, caller = alice) =>
        (await hub.search.search({ q: 'kiwi', ...extra }, caller)).hits.map((h) => h.snippet).sort();
      expect(await titles({})).toHaveLength(6);
      expect(await titles({ context: 'other' })).toEqual(['«kiwi» elsewhere']);
      expect(await titles({ kind: 'note' })).toEqual(['«kiwi» decision', '«kiwi» secret']);
      expect(await titles({ type: 'blocker' })).toEqual(['«kiwi» blocker']);
      expect(await titles({ actor: 'bob' })).toEqual(['«kiwi» elsewhere']);
      expect(await titles({ phase: 'review' })).toEqual(['«kiwi» review']);
      expect(await titles({ since: '2999-01-01T00:00:00Z' })).toEqual([]);
      expect(await titles({ until: '2999-01-01T00:00:00Z' })).toHaveLength(6);
      expect(await titles({}, bob)).not.toContain('«kiwi» secret');
      expect(await titles({}, bob)).toHaveLength(5);
    });

    it('indexes long turns in chunks and shows the snippet from the chunk that matched', async () => {
      const long = `${'alpha beta gamma delta. '.repeat(4_000)}The zanzibar clause is here. ${'epsilon '.repeat(100)}`;
      await hub.appendEvent('ctx', turn(long), alice);
      const hit = await first('zanzibar');
      expect(hit?.chunk).toBeGreaterThan(0);
      expect(hit?.snippet).toContain('The «zanzibar» clause is here.');
    });

    it('forgets a deleted context’s events', async () => {
      await hub.appendEvent('ctx', turn('ephemeral pineapple'), alice);
      expect(await first('pineapple'))?.toBeDefined();
      await hub.deleteContext('ctx', alice);
      expect((await hub.search.search({ q: 'pineapple' }, alice)).hits).toEqual([]);
    });

    it('indexes in the background once started, and reports index progress', async () => {
      hub.search.startIndexing((listener) => hub.onAppend(listener));
      await hub.appendEvent('ctx', turn('background mango'), alice);
      await expect.poll(async () => (await hub.store.searchProgress()).indexedSeq, { timeout: 5_000 }).toBeGreaterThanOrEqual(1);
      const result = await hub.search.search({ q: 'mango' }, alice);
      expect(result.index.complete).toBe(true);
      expect(result.hits).toHaveLength(1);
    });

    it('finds matches of a filtered query even when newer matches elsewhere are many (no ranking window loses them)', async () => {
      await hub.createContext({ id: 'busy', title: 'Busy' }, alice);
      await hub.appendEvents(
        'ctx',
        Array.from({ length: 10 }, (_, i) => turn(`alpha quiet ${i}`)),
        alice,
      );
      for (let i = 0; i < 6; i++) {
        await hub.appendEvents(
          'busy',
          Array.from({ length: 1000 }, (_, k) => turn(`alpha busy ${i * 1000 + k}`)),
          alice,
        );
      }
      expect((await hub.search.search({ q: 'alpha', context: 'ctx' }, alice)).hits).toHaveLength(10);
      expect((await hub.search.search({ q: 'alpha', limit: 100 }, alice)).hits).toHaveLength(100);
      expect((await hub.search.search({ q: 'alpha busy 5999' }, alice)).hits[0]?.snippet).toBe('«alpha» «busy» «5999»');
    });

    it('rejects a query without words, naming the field', async () => {
      const error = await hub.search.search({ q: '!!! ???' }, alice).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BatonError);
      expect((error as BatonError).code).toBe('invalid_argument');
      expect((error as BatonError).message).toContain('q');
      const limit = await hub.search.search({ q: 'x', limit: '0' }, alice).catch((e: unknown) => e);
      expect((limit as BatonError).message).toContain('limit');
    });
  });
}

describe('chunkText', () => {
  it('cuts at spaces, within the chunk size, losing nothing', async () => {
    const { chunkText, CHUNK_CHARS } = await import('./tokenize.js');
    const long = 'alpha beta gamma delta. '.repeat(4_000);
    const chunks = chunkText(long);
    expect(chunks.length).toBeGreaterThan(5);
    expect(chunks.every((c) => c.length <= CHUNK_CHARS)).toBe(true);
    expect(chunks.join('')).toBe(long);
    const cjk = '数据库'.repeat(20_000);
    expect(chunkText(cjk).join('')).toBe(cjk);
  });
});
