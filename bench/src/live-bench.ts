import { type ChildProcess, fork } from 'node:child_process';
import { Agent, request } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FromSubscribers, ToSubscribers } from './live-subscribers.js';
import { wallClock } from './live-subscribers.js';
import { benchScale } from './scale.js';
import type { BenchTable } from './table.js';
import { type Served, startBaton } from './timeline/processes.js';
import { scratchDir } from './timeline/sqlite-files.js';
import { median, ms, percentile, verdict } from './timeline/stats.js';

/**
 * Append-to-subscriber latency on the live feed (issue 4). Three processes,
 * as in a real deployment: a `baton serve` child on SQLite; this process, the
 * writer, appending at a fixed rate over HTTP; and a subscriber child
 * (live-subscribers.ts) holding the N WebSocket subscribers. Latency runs
 * from the moment the writer starts the POST (its wall clock, carried in the
 * event's metadata) to the moment a subscriber has the event (the
 * subscriber process's wall clock), so it includes the append itself; the
 * two clocks' offset is measured over IPC and removed. Every subscriber
 * counts its events, which must come out to exactly one per event each,
 * and checks their seq order: zero lost, zero duplicated.
 */
interface Row {
  label: string;
  subscribers: number;
  contexts: number;
}

interface RunResult {
  p50: number;
  p99: number;
  achieved: number;
  lost: number;
  duplicated: number;
  deliveries: number;
  /** CPU used while appending and delivering, in % of one core: the server's and the subscriber process's. */
  serverCpu: number;
  subscriberCpu: number;
}

/** Subscribers that parse every message and time it; the rest count and check order. */
const MEASURED = 10;
const here = dirname(fileURLToPath(import.meta.url));

/**
 * Which subscribers time their events: spread over the connection order, since
 * the server writes to its sockets in that order, and over the contexts.
 */
function measuredSubscribers(subscribers: number): number[] {
  const step = Math.floor(subscribers / MEASURED) + 1;
  return Array.from({ length: Math.min(MEASURED, subscribers) }, (_, k) => Math.min(subscribers - 1, k * step));
}

async function post(agent: Agent, url: URL, body: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 201 ? resolve() : reject(new Error(`append answered ${res.statusCode}`))));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The subscriber process and a typed request/answer over its IPC channel. */
class Subscribers {
  readonly #child: ChildProcess;
  #waiting: ((message: FromSubscribers) => void)[] = [];

  constructor() {
    this.#child = fork(join(here, 'live-subscribers.ts'), [], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.#child.on('message', (message: FromSubscribers) => this.#waiting.shift()?.(message));
    this.#child.once('exit', (code) => {
      for (const waiter of this.#waiting.splice(0))
        waiter({ type: 'done', counts: [], disorder: Number.NaN, latencies: [], cpuMs: Number.NaN });
      if (code) process.stderr.write(`live-subscribers exited with ${code}\n`);
    });
  }

  ask(message: ToSubscribers): Promise<FromSubscribers> {
    return new Promise((resolve) => {
      this.#waiting.push(resolve);
      this.#child.send(message);
    });
  }

  /**
   * Their clock minus ours, NTP-style: the child's reading is taken between
   * our send and our receipt, so at the midpoint within ± rtt/2; the
   * fastest of many round trips bounds the error best.
   */
  async clockOffset(): Promise<{ offset: number; rtt: number }> {
    let best = { offset: 0, rtt: Number.POSITIVE_INFINITY };
    for (let id = 0; id < 50; id++) {
      const t0 = wallClock();
      const answer = await this.ask({ type: 'clock', id });
      const t1 = wallClock();
      if (answer.type === 'clock' && t1 - t0 < best.rtt) best = { offset: answer.now - (t0 + t1) / 2, rtt: t1 - t0 };
    }
    return best;
  }

  stop(): void {
    this.#child.disconnect();
  }
}

async function runRow(served: Served, subscribers: Subscribers, row: Row, rate: number, seconds: number, tag: string): Promise<RunResult> {
  const baseUrl = served.url;
  const contexts = Array.from({ length: row.contexts }, (_, i) => `live-${tag}-${i}`);
  for (const id of contexts) await post(new Agent({ keepAlive: false }), new URL('/api/v1/contexts', baseUrl), JSON.stringify({ id }));
  await subscribers.ask({
    type: 'open',
    url: `${baseUrl.replace('http', 'ws')}/api/v1/live`,
    contexts,
    subscribers: row.subscribers,
    measured: measuredSubscribers(row.subscribers),
  });
  const { offset } = await subscribers.clockOffset();

  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const cpu0 = served.cpuSeconds();
  const total = Math.round(rate * seconds);
  const started = performance.now();
  const pending: Promise<void>[] = [];
  // Send whatever is due, then sleep a tick: a timer per event would cap the rate below 1,000/s.
  for (let i = 0; i < total; ) {
    const due = Math.min(total, Math.floor(((performance.now() - started) * rate) / 1000) + 1);
    for (; i < due; i++) {
      const contextId = contexts[i % contexts.length] as string;
      const body = JSON.stringify({
        kind: 'activity',
        activityType: 'agent_action',
        metadata: { i, t: wallClock() },
        content: [{ type: 'text', text: `event ${i}` }],
      });
      pending.push(post(agent, new URL(`/api/v1/contexts/${contextId}/events`, baseUrl), body));
    }
    await new Promise((r) => setTimeout(r, 1));
  }
  await Promise.all(pending);
  const achieved = total / ((performance.now() - started) / 1000);
  agent.destroy();
  const done = await subscribers.ask({ type: 'finish', total, timeoutMs: 30_000 });
  if (done.type !== 'done' || done.counts.length !== row.subscribers) throw new Error('the subscriber process failed');
  const elapsed = (performance.now() - started) / 1000;
  const serverCpu = (100 * (served.cpuSeconds() - cpu0)) / elapsed;
  const expected = done.counts.map((_, s) => Math.ceil((total - (s % contexts.length)) / contexts.length));
  const latencies = done.latencies.map((l) => l - offset);
  return {
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    achieved,
    lost: done.counts.reduce((sum, c, s) => sum + Math.max(0, (expected[s] as number) - c), 0),
    duplicated: done.counts.reduce((sum, c, s) => sum + Math.max(0, c - (expected[s] as number)), 0) + done.disorder,
    deliveries: done.counts.reduce((a, b) => a + b, 0),
    serverCpu,
    subscriberCpu: done.cpuMs / 10 / elapsed,
  };
}

/**
 * BATON_BENCH_LIVE_ROWS picks rows while working on the feed: `1,100` runs the
 * 1- and 100-subscriber rows, `1000/100` the one over 100 contexts.
 */
export async function run(): Promise<BenchTable> {
  const only = (process.env.BATON_BENCH_LIVE_ROWS ?? '').split(',').filter(Boolean);
  const scale = benchScale();
  const seconds = scale.pick(2, 5);
  const reps = scale.pick(1, 3);
  const rate = 1000;
  const rows: Row[] = [
    { label: '1 subscriber', subscribers: 1, contexts: 1 },
    { label: '100 subscribers, all events to each', subscribers: 100, contexts: 1 },
    { label: '1,000 subscribers over 100 contexts', subscribers: 1000, contexts: 100 },
    { label: '1,000 subscribers, all events to each', subscribers: 1000, contexts: 1 },
  ].filter((row) => only.length === 0 || only.includes(row.contexts === 1 ? `${row.subscribers}` : `${row.subscribers}/${row.contexts}`));
  const scratch = scratchDir('baton-live-bench-');
  const served = await startBaton(scratch.dir);
  const subscribers = new Subscribers();
  const out: (string | number)[][] = [];
  let clock = { offset: 0, rtt: 0 };
  try {
    clock = await subscribers.clockOffset();
    for (const [r, row] of rows.entries()) {
      const results: RunResult[] = [];
      for (let rep = 0; rep < reps; rep++) results.push(await runRow(served, subscribers, row, rate, seconds, `${r}-${rep}`));
      const p99 = median(results.map((x) => x.p99));
      const target = row.subscribers === 100 ? `≤ 10 ms p99: ${verdict(p99 <= 10)}` : '';
      out.push([
        row.label,
        `${Math.round(median(results.map((x) => x.achieved)))}/s`,
        median(results.map((x) => x.deliveries)),
        ms(median(results.map((x) => x.p50))),
        ms(p99),
        results.reduce((s, x) => s + x.lost, 0),
        results.reduce((s, x) => s + x.duplicated, 0),
        `${Math.round(median(results.map((x) => x.serverCpu)))}% / ${Math.round(median(results.map((x) => x.subscriberCpu)))}%`,
        '< 1 s (reference/000)',
        target,
      ]);
    }
  } finally {
    subscribers.stop();
    await served.stop();
    scratch.remove();
  }
  return {
    title: 'Live feed: append-to-subscriber latency (WebSocket /api/v1/live)',
    columns: [
      'subscribers',
      'appends',
      'deliveries',
      'p50',
      'p99',
      'lost',
      'duplicated',
      'CPU server / subscribers',
      'reference',
      'target',
    ],
    rows: out,
    notes: [
      `${seconds} s at ${rate} appends/s per run, median of ${reps} runs. Three processes share the 2 cores: the server (\`baton serve\` on SQLite), the writer (HTTP appends) and the subscribers (WebSocket clients).`,
      `Latency runs from the start of the POST (writer's clock) to receipt by a subscriber (subscriber process's clock; performance.timeOrigin + performance.now() in each, offset measured over IPC and removed: ${clock.offset.toFixed(3)} ms, ±${(clock.rtt / 2).toFixed(3)} ms), append included, timed on ${MEASURED} subscribers that JSON.parse every message. Every subscriber counts its events and checks their seq order: lost and duplicated (including out of order) must be 0.`,
      'CPU: what the server process and the subscriber process used from the first append to the last delivery, in % of one core (the server also parses and stores the appends).',
    ],
  };
}
