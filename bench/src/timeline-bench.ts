import { availableParallelism } from 'node:os';
import { benchScale } from './scale.js';
import type { BenchTable } from './table.js';
import { buildTimelineStore } from './timeline/big-store.js';
import { httpAppendBench, medianCpu, medianP99, medianRate } from './timeline/http-appends.js';
import { ingestBench, ingestMedians } from './timeline/ingest.js';
import { migrationBench } from './timeline/migration.js';
import { sizeBench } from './timeline/size.js';
import { scratchDir } from './timeline/sqlite-files.js';
import { bytes, int, ms, ratio, verdict } from './timeline/stats.js';
import { tailBench } from './timeline/tail.js';

type Row = (string | number)[];

const log = (message: string) => process.stderr.write(`  timeline: ${message}\n`);

/** The timeline targets of issue 2: ingest, HTTP appends, tail reads, migration time, size on disk. */
export async function run(): Promise<BenchTable> {
  const scale = benchScale();
  const rows: Row[] = [];
  const notes: string[] = [];

  /** Runs one part; a failure becomes a row of its own and the other parts still run. */
  const part = async (name: string, fn: () => Promise<void>) => {
    log(name);
    try {
      await fn();
    } catch (error) {
      process.exitCode = 1;
      const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
      rows.push([name, 'failed', message ?? '', '—', '—', '**error**']);
      notes.push(`${name} failed: ${error instanceof Error ? error.stack : String(error)}`);
    }
  };

  await part('batch ingest', async () => {
    const ingest = await ingestBench(scale);
    const m = ingestMedians(ingest);
    const raw = `raw better-sqlite3 INSERT, 1 tx per 1,000: ${int(m.raw)} rows/s`;
    rows.push(
      [
        'Batch ingest: hub.appendEvents, 1,000 per call (validated)',
        `${int(m.hub)} rows/s`,
        raw,
        ratio(m.hub, m.raw),
        '≥ 0.50× raw',
        verdict(m.hub >= 0.5 * m.raw),
      ],
      [
        "Batch ingest: the store's appendEvents, 1,000 per transaction",
        `${int(m.store)} rows/s`,
        raw,
        ratio(m.store, m.raw),
        '≥ 0.50× raw',
        verdict(m.store >= 0.5 * m.raw),
      ],
    );
    notes.push(
      `Ingest: ${int(ingest.rows)} typical activity events per run, median of ${ingest.reps} runs; each run a fresh SQLite store (WAL, synchronous=NORMAL). ` +
        'The raw reference inserts the very rows the store wrote (same table, indexes and pragmas) with one prepared statement.',
    );
  });

  await part('HTTP appends', async () => {
    const http = await httpAppendBench(scale);
    for (const row of http.rows) {
      const baton = medianRate(row.baton);
      const bare = medianRate(row.bare);
      const target = row.concurrency === 32;
      rows.push([
        `HTTP single-event appends, concurrency ${row.concurrency}`,
        `${int(baton)}/s (p99 ${ms(medianP99(row.baton))})`,
        `bare @hono/node-server JSON.parse + 201: ${int(bare)}/s (p99 ${ms(medianP99(row.bare))})`,
        ratio(baton, bare),
        target ? '≥ 10,000/s' : '—',
        target ? verdict(baton >= 10_000) : '—',
      ]);
    }
    const cpu = http.rows.map(
      (r) => `concurrency ${r.concurrency}: baton ${int(medianCpu(r.baton))} µs, bare ${int(medianCpu(r.bare))} µs`,
    );
    notes.push(
      `HTTP: \`baton serve\` (the built binary, SQLite) and the bare reference each in their own process; the load generator (${http.client}) ` +
        `in a third, on 127.0.0.1 with keep-alive, ${http.seconds} s per run after a warm-up, median of ${http.reps} run${http.reps === 1 ? '' : 's'}. ` +
        `All three share ${availableParallelism()} cores. The server stored ${int(http.stored)} events; the client counted ${int(http.acknowledged)} 201s. ` +
        `Server CPU per request (steadier than throughput on a busy machine): ${cpu.join('; ')}.`,
    );
  });

  const big = scratchDir('timeline');
  const mig = scratchDir('migration');
  try {
    const events = scale.pick(50_000, 1_000_000);
    let store: Awaited<ReturnType<typeof buildTimelineStore>> | undefined;
    await part(`building a ${int(events)}-event store`, async () => {
      store = await buildTimelineStore(big.dir, events);
      notes.push(
        `Large store: ${int(store.events)} events (66% agent actions, 6% other activity, 24% model turns of 2–3 KB, 4% notes) over ${store.contexts} contexts, ` +
          `${bytes(store.bytes)}, built through the store's append in ${store.buildSeconds.toFixed(0)} s; the measured context holds ${int(store.contextEvents)} of them, interleaved.` +
          (store.searchSkipped
            ? ' Its full-text index watermark is set to the head, so the server spends the measurement serving, not backfilling search.'
            : ''),
      );
    });
    const built = store;
    if (built) {
      await part('tail reads', async () => {
        const tail = await tailBench(scale, big.dir, big.file, built.contextId);
        const raw = `raw SQL on better-sqlite3: p50 ${ms(tail.raw.p50)} · p99 ${ms(tail.raw.p99)}`;
        rows.push(
          [
            `\`GET …/events?tail=100\` over HTTP, ${int(built.events)}-event store`,
            `p50 ${ms(tail.http.p50)} · p99 ${ms(tail.http.p99)}`,
            raw,
            `${ratio(tail.http.p99, tail.raw.p99)} (p99)`,
            'p99 ≤ 5 ms',
            verdict(tail.http.p99 <= 5),
          ],
          [
            'hub.listEvents tail 100, in-process',
            `p50 ${ms(tail.hub.p50)} · p99 ${ms(tail.hub.p99)}`,
            raw,
            `${ratio(tail.hub.p99, tail.raw.p99)} (p99)`,
            '—',
            '—',
          ],
        );
        notes.push(
          `Tail: in-process and raw SQL ${int(tail.iterations)} sequential reads each, HTTP ${int(tail.httpRequests)} reads one at a time from ${tail.client} ` +
            `(server CPU ${int(tail.serverCpuMicros)} µs per read), all after a warm-up; one HTTP response is ${bytes(tail.responseBytes)}.`,
        );
      });

      await part('migration', async () => {
        const migration = await migrationBench(mig.dir, mig.file, big.file);
        rows.push([
          `Newest migrations (${migration.steps.map((s) => s.name).join(', ') || 'none'}) on a ${bytes(migration.bytes)} store`,
          ms(migration.ms),
          `one full scan of the events table: ${ms(migration.scanMs)}`,
          ratio(migration.ms, migration.scanMs),
          '< 1 s',
          verdict(migration.ms < 1000 && migration.steps.length > 0),
        ]);
        notes.push(
          `Migration: a database stopped at ${migration.from} and filled with the large store's ${int(migration.events)} events (${migration.buildSeconds.toFixed(0)} s), ` +
            `then opened and migrated to the newest: ${migration.steps.map((s) => `${s.name} ${ms(s.ms)}`).join(', ')}.`,
        );
      });
    }
  } finally {
    big.remove();
    mig.remove();
  }

  await part('size on disk', async () => {
    const size = await sizeBench();
    const json = `the same events as JSON: ${bytes(size.json)}`;
    rows.push([
      'On-disk bytes per 10,000 typical activity events (SQLite, all indexes incl. full-text)',
      bytes(size.sqlite),
      json,
      ratio(size.sqlite, size.json),
      '≤ 2 MB',
      verdict(size.sqlite <= 2_000_000),
    ]);
    if (size.postgres !== null) {
      rows.push([
        'On-disk bytes per 10,000 typical activity events (PostgreSQL, all indexes incl. full-text)',
        bytes(size.postgres),
        json,
        ratio(size.postgres, size.json),
        '≤ 2 MB',
        verdict(size.postgres <= 2_000_000),
      ]);
    }
    notes.push(
      'Size: an agent_action with a ~120-character text, an actor with name and runtime, a taskId on a third; measured after the search index ' +
        'caught up, VACUUM and a WAL checkpoint, less the size before appending. ' +
        `SQLite by table and index: ${size.breakdown.map((b) => `${b.name} ${bytes(b.bytes)}`).join(', ')}. MB and GB are decimal (10^6, 10^9 bytes).`,
    );
  });

  return {
    title: `Timeline (scale: ${scale.name})`,
    columns: ['benchmark', 'baton (median)', 'reference, same run (median)', 'baton ÷ reference', 'target', 'result'],
    rows,
    notes,
  };
}
