import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as nextTick } from 'node:timers/promises';
import { isDeepStrictEqual } from 'node:util';
import { BatonClient } from 'baton/client';
import { createRecorder, type RecorderLogger, type RecorderOptions } from 'baton/recorder';
import { benchScale } from './scale.js';
import type { BenchTable } from './table.js';
import { startBare, startBaton } from './timeline/processes.js';
import { int, ms, percentile, verdict } from './timeline/stats.js';

/**
 * Issue 5: what the recorder adds to a model call. A "provider" that answers
 * on the next turn of the event loop is called back to back, alternately bare
 * and through `recorder.call`, so both see the same machine; the overhead at
 * a percentile is recorded minus bare at that percentile. Back-to-back calls
 * are the worst case: a real model call takes seconds, during which the
 * previous response's write has long finished. Every recorded result must be
 * deep-equal to its bare twin, and every turn must reach the hub.
 */
const TARGET_P99_MS = 1;

interface Mode {
  label: string;
  options: (ctx: {
    hubUrl: string;
    bareUrl: string;
    dataDir: string;
    deadUrl: string;
    journalDir: string;
  }) => Omit<RecorderOptions, 'contextId'>;
  /** Whether the turns are expected to be stored. */
  stores: boolean;
}

const MODES: Mode[] = [
  {
    label: 'local hub (`baton serve`), prompt journaled before the call (default)',
    options: ({ hubUrl, journalDir }) => ({ url: hubUrl, journalDir }),
    stores: true,
  },
  {
    label: 'local hub, `waitForPrompt: true` (each call waits for the hub to commit its prompt)',
    options: ({ hubUrl, journalDir }) => ({ url: hubUrl, journalDir, waitForPrompt: true }),
    stores: true,
  },
  { label: 'embedded store (`dataDir`, on a worker thread), default', options: ({ dataDir }) => ({ dataDir }), stores: true },
  { label: 'hub unreachable (connection refused)', options: ({ deadUrl, journalDir }) => ({ url: deadUrl, journalDir }), stores: false },
  {
    label: 'reference: the same recorder against the bare @hono/node-server (answers 201, stores nothing)',
    options: ({ bareUrl, journalDir }) => ({ url: bareUrl, journalDir }),
    stores: true,
  },
];

const quiet: RecorderLogger = { debug() {}, info() {}, warn() {}, error() {} };

const PROMPT = `Plan the change. ${'Context line for the planner. '.repeat(64)}`;

async function provider(i: number): Promise<{ text: string; usage: { input: number; output: number } }> {
  await nextTick();
  return { text: `Answer ${i}: ${'a step of the plan. '.repeat(24)}`, usage: { input: 512, output: 128 } };
}

interface Measured {
  /** Milliseconds per recorded call. */
  recorded: number[];
  identical: boolean;
}

type RecordCall = (i: number) => Promise<unknown>;

/** The same provider with no recorder anywhere in the process: what every overhead is measured from. */
async function measureBare(calls: number): Promise<number[]> {
  for (let i = 0; i < calls; i++) await provider(i);
  const samples: number[] = [];
  for (let i = 0; i < calls; i++) {
    const t = performance.now();
    await provider(i);
    samples.push(performance.now() - t);
  }
  return samples;
}

/** `calls` recorded calls, each result compared with a bare call's (made just before, untimed). */
async function measure(record: RecordCall, calls: number): Promise<Measured> {
  const recorded: number[] = [];
  let identical = true;
  for (let i = 0; i < calls; i++) {
    const plain = await provider(i);
    const t = performance.now();
    const through = await record(i);
    recorded.push(performance.now() - t);
    identical &&= isDeepStrictEqual(plain, through);
  }
  return { recorded, identical };
}

/** Recorded calls before measuring, so the pipeline's and the hub's hot code reach their optimized tiers. */
async function warmUp(record: RecordCall, calls: number): Promise<void> {
  for (let i = 0; i < calls; i++) await record(i);
}

export async function run(): Promise<BenchTable> {
  const scale = benchScale();
  const calls = scale.pick(300, 10_000);
  const warmupCalls = scale.pick(50, 5_000);
  const coldCalls = scale.pick(300, 3_000);
  const scratch = mkdtempSync(join(tmpdir(), 'baton-recorder-bench-'));
  const served = await startBaton(join(scratch, 'hub'));
  const bareServer = await startBare();
  const deadUrl = await unreachableUrl();
  const loadBefore = loadavg()[0] ?? 0;
  const rows: (string | number)[][] = [];
  let allIdentical = true;
  const p = (values: number[], q: number) => percentile(values, q);
  const bare = await measureBare(calls);
  const overhead = (m: Measured, q: number) => Math.max(0, p(m.recorded, q) - p(bare, q));
  const row = (label: string, m: Measured, stored: string, verdictCell: string): (string | number)[] => [
    label,
    int(m.recorded.length),
    ms(p(m.recorded, 50)),
    ms(p(m.recorded, 99)),
    ms(overhead(m, 50)),
    ms(overhead(m, 99)),
    m.identical ? 'identical' : '**differs**',
    stored,
    verdictCell,
  ];
  rows.push([
    'no recorder: the bare provider call (what the overheads are measured from)',
    int(calls),
    ms(p(bare, 50)),
    ms(p(bare, 99)),
    '—',
    '—',
    '—',
    '—',
    '—',
  ]);
  try {
    for (const [index, mode] of MODES.entries()) {
      const contextId = `bench-${index}`;
      const options = mode.options({
        hubUrl: served.url,
        bareUrl: bareServer.url,
        dataDir: join(scratch, `embedded-${index}`),
        deadUrl,
        journalDir: join(scratch, 'journal'),
      });
      // Default buffers: back to back, this pipeline outpaces the hub, and what overflows the
      // in-memory buffer is read back from the journal when its turn to be sent comes.
      const rec = createRecorder({ ...options, contextId, logger: quiet });
      const record = (i: number) =>
        rec.call(
          { phase: 'plan', round: i, speaker: 'bench', model: 'claude-sonnet-4-6', stepId: `step-${i}` },
          PROMPT,
          () => provider(i),
          (r) => ({
            content: r.text,
            usage: { inputTokens: r.usage.input, outputTokens: r.usage.output },
          }),
        );
      let expectedTurns = 0;
      if (index === 0) {
        // The first calls a just-started hub and pipeline see, before either is warm: reported, not judged.
        const cold = await measure(record, coldCalls);
        allIdentical &&= cold.identical;
        expectedTurns += 2 * coldCalls;
        rows.push(
          row(`cold start: the default mode's first ${int(coldCalls)} calls, hub started a moment before`, cold, '—', '— (see notes)'),
        );
      }
      await warmUp(record, warmupCalls);
      const m = await measure(record, calls);
      await rec.close(10_000);
      const stats = rec.stats();
      expectedTurns += 2 * (calls + warmupCalls);
      // Remote modes are checked against the hub itself; the embedded store reports what it committed.
      const stored =
        mode.stores && options.url === served.url
          ? (await new BatonClient({ url: served.url }).getContext(contextId)).eventCount
          : stats.turnsWritten;
      allIdentical &&= m.identical;
      rows.push(
        row(
          mode.label,
          m,
          mode.stores
            ? `${stored} / ${expectedTurns}${stats.turnsSpilled > 0 ? ` (${int(stats.turnsSpilled)} read back from the journal)` : ''}`
            : `0 (${stats.turnsDropped} left in the journal for the next run)`,
          verdict(overhead(m, 99) <= TARGET_P99_MS),
        ),
      );
    }
    rows.push(await roundTrip(served.url, calls, warmupCalls));
  } finally {
    await served.stop();
    await bareServer.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
  return {
    title: 'Recorder overhead per model call (issue 5)',
    columns: [
      'mode',
      'calls',
      'call p50',
      'call p99',
      'overhead p50',
      'overhead p99',
      'pipeline result',
      'turns stored',
      `p99 ≤ ${TARGET_P99_MS} ms`,
    ],
    rows,
    notes: [
      "Back-to-back calls to a provider that answers on the next event-loop turn: the worst case (about 20,000 calls a second; a real model call takes seconds, during which the recorder's writes are long done). Each call's prompt write also carries the previous call's response (a response waits up to 20 ms for the next prompt).",
      "Overhead at a percentile = that percentile of the recorded calls minus the same percentile of the bare provider call, measured first with no recorder in the process. The issue's target (≤ 1 ms at p99, with a local hub) is the default-mode row; the other rows show what the other settings cost.",
      "The embedded store (`dataDir`) runs the hub on a worker thread of the pipeline's process: the pipeline's thread posts each batch's JSON bytes, the worker validates, commits and indexes them (better-sqlite3 is synchronous, so on the pipeline's own thread each commit would land inside some call).",
      `Each mode is measured in steady state, after ${int(warmupCalls)} recorded calls of warm-up, whose turns count in "turns stored". Recorders run with their default buffers: turns beyond the 10,000 held in memory wait in the journal and are read back, in order, when their turn to be sent comes.`,
      "The cold-start row is the first calls after `baton serve` and the pipeline start, with no warm-up: both processes are still compiling their hot code (V8 compiles on background threads, which compete with the pipeline for this machine's two cores). It is shown, not judged: a real pipeline's first model call takes seconds, during which that is over.",
      'Default mode: the prompt is appended to a local write-ahead journal (one write(2), durable against kill -9) and sent to the hub at once; the provider call does not wait for the round trip. A process killed mid-call leaves its prompt in the journal even when the hub was down, and the next recorder for that hub replays it (tested).',
      '`waitForPrompt: true` makes every call wait until the hub has committed its prompt: one round trip per call, bounded by the reference row.',
      'The bare-server reference row runs the same recorder against a server that does nothing but answer 201: what is left of the p99 there is the cost of having requests in flight on this machine at all (socket wake-ups, scavenges, preemption), not the hub’s work.',
      `Pipeline results compared with the bare provider's with node:util isDeepStrictEqual: ${allIdentical ? 'all identical' : 'SOME DIFFER'}.`,
      `1-minute load average when the run started: ${loadBefore.toFixed(1)}; p99 values on a busy machine are mostly scheduling delay (compare the reference row).`,
    ],
  };
}

/** The floor under the default mode: one append of a prompt-sized turn to the same hub, through the same client. */
async function roundTrip(url: string, calls: number, warmup: number): Promise<(string | number)[]> {
  const client = new BatonClient({ url, actor: { id: 'bench' } });
  await client.createContext({ id: 'bench-round-trip' });
  const append = (i: number) =>
    client.appendEvents('bench-round-trip', [
      { id: `rt-${i}`, kind: 'turn', direction: 'prompt', phase: 'plan', content: [{ type: 'text', text: PROMPT }] },
    ]);
  for (let i = 0; i < warmup; i++) await append(-1 - i);
  const samples: number[] = [];
  for (let i = 0; i < calls; i++) {
    const t = performance.now();
    await append(i);
    samples.push(performance.now() - t);
  }
  const p50 = percentile(samples, 50);
  const p99 = percentile(samples, 99);
  return [
    'reference: one append round trip to the hub (BatonClient), no recorder',
    int(calls),
    ms(p50),
    ms(p99),
    ms(p50),
    ms(p99),
    '—',
    `${calls} / ${calls}`,
    '—',
  ];
}

async function unreachableUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
