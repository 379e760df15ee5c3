import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Hub, localCaller, type Store } from 'baton';
import { BatonClient } from 'baton/client';
import { benchScale } from './scale.js';
import type { BenchTable } from './table.js';
import { ACTORS, benchId, type PreparedEvent, prepare, type Random, seeded, timelineEvent } from './timeline/events.js';
import { startBaton } from './timeline/processes.js';
import { freshStore, scratchDir } from './timeline/sqlite-files.js';
import { int, ms, percentile, sampleLatency, verdict } from './timeline/stats.js';

/**
 * Handoff (issue 6): the shared context at a 4,000-token budget on a context
 * of 100,000 events, and full-text search over 1,000,000 turns, both
 * in-process through the hub on SQLite (what every surface calls); then
 * search over MCP beside @modelcontextprotocol/server-memory's search_nodes
 * on the same items, the same queries, in the same run.
 */
const require = createRequire(import.meta.url);
const MEMORY_SERVER = join(dirname(require.resolve('@modelcontextprotocol/server-memory/package.json')), 'dist', 'index.js');
/** Untimed calls before each measured series. */
const WARMUP = 20;
const caller = localCaller({ id: 'bench', name: 'bench', runtime: 'claude-code', role: 'agent' });

/** A Zipf-distributed vocabulary of synthetic words, so queries can be rare, medium or common on purpose. */
const SYLLABLES = 'ka ri to ne su mo la vi zu pe go ha ni ko ra me tu si bo de'.split(' ');
const VOCABULARY = Array.from({ length: 30_000 }, (_, i) => {
  let word = '';
  for (let n = i + 400; n > 0; n = Math.floor(n / SYLLABLES.length)) word += SYLLABLES[n % SYLLABLES.length];
  return `${word}x`;
});
const CUMULATIVE = (() => {
  const out = new Float64Array(VOCABULARY.length);
  let sum = 0;
  for (let r = 0; r < VOCABULARY.length; r++) {
    sum += 1 / (r + 1);
    out[r] = sum;
  }
  return out.map((v) => v / sum);
})();
function zipfWord(rand: Random): string {
  const x = rand();
  let lo = 0;
  let hi = CUMULATIVE.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((CUMULATIVE[mid] as number) < x) lo = mid + 1;
    else hi = mid;
  }
  return VOCABULARY[lo] as string;
}
const NOUNS = Array.from(
  { length: 300 },
  (_, i) => `カ${'タナリサミ'[i % 5]}${'ロキスノ'[Math.floor(i / 5) % 4]}${'アイウエオ'[Math.floor(i / 20) % 5]}${i}`,
);
const JAPANESE = (noun: string) => `「${noun}」のデータベース移行は金曜日の夜に延期しました。バックアップを先に取ります。`;

function searchTurn(rand: Random, i: number): string {
  if (i % 50 === 7) return JAPANESE(NOUNS[Math.floor(i / 50) % NOUNS.length] as string);
  const words: string[] = [];
  for (let k = 0; k < 36; k++) words.push(zipfWord(rand));
  return `${words.join(' ')}.`;
}

async function appendTurns(store: Store, contextId: string, total: number): Promise<void> {
  const rand = seeded(6);
  for (let done = 0; done < total; done += 1000) {
    const batch: PreparedEvent[] = [];
    for (let i = done; i < Math.min(total, done + 1000); i++) {
      batch.push(
        prepare(
          {
            kind: 'turn',
            direction: i % 2 ? 'response' : 'prompt',
            actor: ACTORS[i % ACTORS.length],
            content: [{ type: 'text', text: searchTurn(rand, i) }],
          },
          contextId,
          benchId(),
        ),
      );
    }
    await store.write((tx) => tx.appendEvents(batch, Date.now()));
  }
}

interface QueryClass {
  name: string;
  queries: string[];
}

function queryClasses(rand: Random, n: number): QueryClass[] {
  const ranks = (from: number, to: number) =>
    Array.from({ length: n }, () => VOCABULARY[from + Math.floor(rand() * (to - from))] as string);
  const medium = ranks(1_000, 3_000);
  return [
    { name: 'rare word (rank 20k–30k)', queries: ranks(20_000, 30_000) },
    { name: 'medium word (rank 1k–3k)', queries: medium },
    { name: 'two words (rank 100–1k AND 1k–3k)', queries: ranks(100, 1_000).map((w, i) => `${w} ${medium[i]}`) },
    { name: 'Japanese phrase', queries: Array.from({ length: n }, () => `${NOUNS[Math.floor(rand() * NOUNS.length)]}のデータベース移行`) },
    { name: 'common word (rank 20–50)', queries: ranks(20, 50) },
  ];
}

async function sharedContextRows(sharedEvents: number, iterations: number): Promise<(string | number)[][]> {
  const scratch = scratchDir('handoff-shared');
  const store = await freshStore(scratch.dir);
  try {
    const hub = new Hub(store);
    const context = await hub.createContext({ title: 'shared context bench' }, caller);
    const taskIds: string[] = [];
    for (let i = 0; i < 20; i++)
      taskIds.push((await hub.createTask(context.id, { title: `task ${i}`, state: i % 3 ? 'working' : 'submitted' }, caller)).id);
    const rand = seeded(2026);
    for (let done = 0; done < sharedEvents; done += 1000) {
      const batch: PreparedEvent[] = [];
      for (let i = done; i < Math.min(sharedEvents, done + 1000); i++)
        batch.push(prepare(timelineEvent(rand, taskIds), context.id, benchId()));
      await store.write((tx) => tx.appendEvents(batch, Date.now()));
    }
    // As a running server has it: the WAL folded back into the database, caches and JIT warm.
    await store.sizeOnDisk();
    for (let i = 0; i < WARMUP; i++) await hub.handoff.sharedContext(context.id, { tokenBudget: 4000 }, caller);
    const rows: (string | number)[][] = [];
    for (const format of ['markdown', 'json'] as const) {
      let tokens = 0;
      const samples = await sampleLatency(iterations, async () => {
        tokens = (await hub.handoff.sharedContext(context.id, { tokenBudget: 4000, format }, caller)).totalTokens;
      });
      const p95 = percentile(samples, 95);
      rows.push([
        `shared context, ${format}, budget 4,000 (${int(tokens)} tokens)`,
        int(sharedEvents),
        ms(percentile(samples, 50)),
        ms(p95),
        '≤ 20 ms',
        verdict(p95 <= 20),
      ]);
    }
    return rows;
  } finally {
    await store.close();
    scratch.remove();
  }
}

async function searchRows(turns: number, n: number): Promise<{ rows: (string | number)[][]; notes: string[] }> {
  const scratch = scratchDir('handoff-search');
  const store = await freshStore(scratch.dir);
  try {
    const hub = new Hub(store);
    const context = await hub.createContext({ title: 'search bench' }, caller);
    const t0 = performance.now();
    await appendTurns(store, context.id, turns);
    const appendSeconds = (performance.now() - t0) / 1000;
    const t1 = performance.now();
    await hub.search.indexer.catchUp();
    const indexSeconds = (performance.now() - t1) / 1000;
    await store.sizeOnDisk();
    for (const cls of queryClasses(seeded(3), 2)) for (const q of cls.queries) await hub.search.search({ q }, caller);
    const rows: (string | number)[][] = [];
    for (const cls of queryClasses(seeded(9), n)) {
      let hits = 0;
      const samples = await sampleLatency(cls.queries.length, async (i) => {
        hits += (await hub.search.search({ q: cls.queries[i], limit: 20 }, caller)).hits.length;
      });
      const p95 = percentile(samples, 95);
      rows.push([
        `search: ${cls.name}, top 20 (avg ${(hits / cls.queries.length).toFixed(1)} hits)`,
        int(turns),
        ms(percentile(samples, 50)),
        ms(p95),
        '≤ 50 ms',
        verdict(p95 <= 50),
      ]);
    }
    const notes = [
      `Search store: ${int(turns)} turns of ~36 words from a 30,000-word Zipf vocabulary (2% Japanese sentences), appended in ${appendSeconds.toFixed(0)} s and indexed in ${indexSeconds.toFixed(0)} s (${int(turns / indexSeconds)} events/s: ICU word segmentation in JavaScript, then FTS5), ${((await store.sizeOnDisk()) / 2 ** 20).toFixed(0)} MiB on disk with the index.`,
    ];
    return { rows, notes };
  } finally {
    await store.close();
    scratch.remove();
  }
}

async function callOk(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
  return result;
}

/** context_search over MCP (Streamable HTTP) beside server-memory's search_nodes (stdio), same items and queries. */
async function versusMemory(items: number, n: number): Promise<(string | number)[][]> {
  const scratch = scratchDir('handoff-memory');
  const server = await startBaton(scratch.dir);
  const clients: Client[] = [];
  try {
    const rest = new BatonClient({ url: server.url, actor: { id: 'bench' } });
    await rest.createContext({ id: 'search-bench', title: 'search bench' });
    const baton = new Client({ name: 'bench', version: '1.0.0' });
    await baton.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { 'x-baton-actor': 'bench' } } }),
    );
    const memory = new Client({ name: 'bench', version: '1.0.0' });
    await memory.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [MEMORY_SERVER],
        stderr: 'ignore',
        env: { ...process.env, MEMORY_FILE_PATH: join(scratch.dir, 'memory.jsonl') } as Record<string, string>,
      }),
    );
    clients.push(baton, memory);
    await baton.listTools();
    await memory.listTools();
    const rand = seeded(6);
    const ENTITIES = 100;
    await callOk(memory, 'create_entities', {
      entities: Array.from({ length: ENTITIES }, (_, i) => ({ name: `entity-${i}`, entityType: 'session', observations: [] })),
    });
    for (let at = 0; at < items; at += 1000) {
      const texts = Array.from({ length: Math.min(1000, items - at) }, (_, k) => searchTurn(rand, at + k));
      await rest.appendEvents(
        'search-bench',
        texts.map((text) => ({ kind: 'turn' as const, direction: 'response' as const, content: [{ type: 'text' as const, text }] })),
      );
      const byEntity = new Map<string, string[]>();
      texts.forEach((text, k) => {
        const name = `entity-${(at + k) % ENTITIES}`;
        byEntity.set(name, [...(byEntity.get(name) ?? []), text]);
      });
      await callOk(memory, 'add_observations', { observations: [...byEntity].map(([entityName, contents]) => ({ entityName, contents })) });
    }
    // Catch the index up once, untimed, as a running `baton serve` does in the background.
    await callOk(baton, 'context_search', { query: 'warmup' }).catch(() => {});
    const queries = queryClasses(seeded(9), n)[1]?.queries ?? [];
    const samples = [[], []] as number[][];
    for (const q of queries) {
      let t = performance.now();
      await callOk(baton, 'context_search', { query: q, limit: 20 });
      samples[0]?.push(performance.now() - t);
      t = performance.now();
      await callOk(memory, 'search_nodes', { query: q });
      samples[1]?.push(performance.now() - t);
    }
    const [b = [], m = []] = samples;
    return [
      [`MCP context_search (Streamable HTTP), medium word`, int(items), ms(percentile(b, 50)), ms(percentile(b, 95)), '—', ''],
      [
        `server-memory search_nodes (stdio), same items and words`,
        int(items),
        ms(percentile(m, 50)),
        ms(percentile(m, 95)),
        '—',
        `${(percentile(m, 50) / percentile(b, 50)).toFixed(1)}× slower (p50)`,
      ],
    ];
  } finally {
    await Promise.allSettled(clients.map((c) => c.close()));
    await server.stop();
    scratch.remove();
  }
}

export async function run(): Promise<BenchTable> {
  const scale = benchScale();
  const sharedEvents = scale.pick(10_000, 100_000);
  const turns = scale.pick(50_000, 1_000_000);
  const n = scale.pick(50, 200);
  const rows = await sharedContextRows(sharedEvents, n);
  const search = await searchRows(turns, n);
  rows.push(...search.rows);
  rows.push(...(await versusMemory(scale.pick(2_000, 10_000), n)));
  return {
    title: 'Handoff: shared context and full-text search',
    columns: ['operation', 'events', 'p50', 'p95', 'target', 'result'],
    rows,
    notes: [
      `${n} calls per row after warm-up calls, in-process through the hub on SQLite unless the row says MCP; nearest-rank percentiles.`,
      `Shared context: one context of ${int(sharedEvents)} timeline events (actions, turns of ~2.5 KB, blockers, decisions, attention notes) and 20 tasks; the answer is assembled from indexed reads, cut to 4,000 o200k_base tokens and rendered.`,
      ...search.notes,
      'Search latency includes the query parse, the FTS5 query with BM25 ranking, loading the hit events and building «highlighted» snippets. A common word matches ~8% of all turns; BM25 must score every match before the top 20 are known, so on SQLite such a query is ranked among its newest 5,000 matching chunks (in full when that window does not fill the page; docs/handoff.md).',
      'server-memory keeps its whole graph in one JSONL file that it rereads on every call and matches by substring; baton answers from the FTS index.',
    ],
  };
}
