import { Agent, request } from 'node:http';
import WebSocket from 'ws';
import { benchScale } from './scale.js';
import type { BenchTable } from './table.js';
import { startBaton } from './timeline/processes.js';
import { scratchDir } from './timeline/sqlite-files.js';
import { median, ms, percentile, verdict } from './timeline/stats.js';

/**
 * Append-to-subscriber latency on the live feed (issue 4): a writer appends
 * at a fixed rate over HTTP to a real `baton serve` child process while N
 * WebSocket subscribers in this process receive. Latency is from the moment
 * the writer starts the POST to the moment a subscriber has the event, so it
 * includes the append itself. A few subscribers parse every message to time
 * it and check seq order; the rest count messages, which must come out to
 * exactly one per event each: zero lost, zero duplicated.
 */
interface Row {
  label: string;
  subscribers: number;
  contexts: number;
}

const MEASURED = 10;

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

async function runRow(baseUrl: string, row: Row, rate: number, seconds: number, tag: string) {
  const contexts = Array.from({ length: row.contexts }, (_, i) => `live-${tag}-${i}`);
  for (const id of contexts) await post(new Agent({ keepAlive: false }), new URL('/api/v1/contexts', baseUrl), JSON.stringify({ id }));
  const sentAt = new Map<number, number>();
  const latencies: number[] = [];
  const counts: number[] = [];
  let disorder = 0;
  const sockets: WebSocket[] = [];
  const wsUrl = `${baseUrl.replace('http', 'ws')}/api/v1/live`;
  for (let s = 0; s < row.subscribers; s++) {
    const ws = new WebSocket(wsUrl);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    const index = s;
    counts.push(0);
    const measured = s < MEASURED;
    let lastSeq = 0;
    const subscribed = new Promise<void>((resolve) => {
      ws.on('message', (data: Buffer) => {
        const text = data.toString();
        if (!text.startsWith('{"type":"event"')) {
          if (text.includes('"caught_up"')) resolve();
          return;
        }
        counts[index] = (counts[index] ?? 0) + 1;
        if (!measured) return;
        const message = JSON.parse(text) as { event: { seq: number; metadata: { i: number } } };
        const t0 = sentAt.get(message.event.metadata.i);
        if (t0 !== undefined) latencies.push(performance.now() - t0);
        if (message.event.seq <= lastSeq) disorder += 1;
        lastSeq = message.event.seq;
      });
    });
    ws.send(JSON.stringify({ type: 'subscribe', id: 's', filter: { contextIds: [contexts[s % contexts.length]] } }));
    await subscribed;
    sockets.push(ws);
  }

  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
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
        metadata: { i },
        content: [{ type: 'text', text: `event ${i}` }],
      });
      sentAt.set(i, performance.now());
      pending.push(post(agent, new URL(`/api/v1/contexts/${contextId}/events`, baseUrl), body));
    }
    await new Promise((r) => setTimeout(r, 1));
  }
  await Promise.all(pending);
  const achieved = total / ((performance.now() - started) / 1000);
  const expected = counts.map((_, s) => Math.ceil((total - (s % contexts.length)) / contexts.length));
  const deadline = Date.now() + 30_000;
  while (counts.some((c, s) => c < (expected[s] as number)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  const lost = counts.reduce((sum, c, s) => sum + Math.max(0, (expected[s] as number) - c), 0);
  const duplicated = counts.reduce((sum, c, s) => sum + Math.max(0, c - (expected[s] as number)), 0) + disorder;
  for (const ws of sockets) ws.terminate();
  agent.destroy();
  return {
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    achieved,
    lost,
    duplicated,
    deliveries: counts.reduce((a, b) => a + b, 0),
  };
}

export async function run(): Promise<BenchTable> {
  const scale = benchScale();
  const seconds = scale.pick(2, 5);
  const rate = 1000;
  const rows: Row[] = [
    { label: '1 subscriber', subscribers: 1, contexts: 1 },
    { label: '100 subscribers, all events to each', subscribers: 100, contexts: 1 },
    { label: '1,000 subscribers over 100 contexts', subscribers: 1000, contexts: 100 },
    { label: '1,000 subscribers, all events to each', subscribers: 1000, contexts: 1 },
  ];
  const scratch = scratchDir('baton-live-bench-');
  const served = await startBaton(scratch.dir);
  const out: (string | number)[][] = [];
  try {
    for (const [r, row] of rows.entries()) {
      const reps = [];
      for (let rep = 0; rep < scale.pick(1, 3); rep++) reps.push(await runRow(served.url, row, rate, seconds, `${r}-${rep}`));
      const p99 = median(reps.map((x) => x.p99));
      const target = row.subscribers === 100 ? `≤ 10 ms p99: ${verdict(p99 <= 10)}` : '';
      out.push([
        row.label,
        `${Math.round(median(reps.map((x) => x.achieved)))}/s`,
        median(reps.map((x) => x.deliveries)),
        ms(median(reps.map((x) => x.p50))),
        ms(p99),
        reps.reduce((s, x) => s + x.lost, 0),
        reps.reduce((s, x) => s + x.duplicated, 0),
        '< 1 s (reference/000)',
        target,
      ]);
    }
  } finally {
    await served.stop();
    scratch.remove();
  }
  return {
    title: 'Live feed: append-to-subscriber latency (WebSocket /api/v1/live)',
    columns: ['subscribers', 'appends', 'deliveries', 'p50', 'p99', 'lost', 'duplicated', 'reference', 'target'],
    rows: out,
    notes: [
      `${seconds} s at ${rate} appends/s per run, median of ${scale.pick(1, 3)} runs; server: a \`baton serve\` child process on SQLite; writer and subscribers share this process, so both sides compete for the 2 cores.`,
      'Latency runs from the start of the POST to receipt by a subscriber (append included), timed on 10 parsing subscribers; every subscriber counts its messages to check loss and duplication.',
    ],
  };
}
