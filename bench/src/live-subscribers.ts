import WebSocket from 'ws';

/**
 * The subscriber side of the live benchmark (live-bench.ts), run as its own
 * process so that receiving and parsing do not share an event loop with the
 * writer: a real subscriber is another program. Driven over the IPC channel:
 *
 * - `clock`: answers with this process's clock, so the parent can measure
 *   the offset between the two clocks (see wallClock).
 * - `open`: opens the sockets, subscribes each to one context and answers
 *   `ready` once every subscription is caught up.
 * - `finish`: waits (up to a deadline) until every subscriber has its
 *   expected count of events, closes the sockets and answers with the counts,
 *   the order violations and the measured subscribers' latency samples.
 *
 * The `measured` subscribers JSON.parse every message, as a real client
 * does, and time it: receipt time minus the writer's send time carried in the
 * event's metadata (`t`). The rest only count, which keeps this process from
 * being the bottleneck, and check the seq order from the frame's bytes.
 */
export type ToSubscribers =
  | { type: 'clock'; id: number }
  | { type: 'open'; url: string; contexts: string[]; subscribers: number; measured: number[] }
  | { type: 'finish'; total: number; timeoutMs: number };

export type FromSubscribers =
  | { type: 'clock'; id: number; now: number }
  | { type: 'ready' }
  | { type: 'done'; counts: number[]; disorder: number; latencies: number[]; cpuMs: number };

/**
 * Wall-clock milliseconds with sub-millisecond resolution: the process's
 * start on the system clock plus monotonic time since. Comparable across
 * processes on one machine, up to the error in each process's timeOrigin,
 * which the parent measures and removes (live-bench.ts, clockOffset).
 */
export const wallClock = (): number => performance.timeOrigin + performance.now();

const EVENT_PREFIX = Buffer.from('{"type":"event"');
const SEQ_KEY = Buffer.from('"seq":');

/** The event's seq from a frame's bytes, without parsing the whole message. */
function seqOf(data: Buffer): number {
  const at = data.indexOf(SEQ_KEY);
  if (at < 0) return (JSON.parse(data.toString()) as { event: { seq: number } }).event.seq;
  let seq = 0;
  for (let i = at + SEQ_KEY.length; i < data.length; i++) {
    const digit = (data[i] as number) - 48;
    if (digit < 0 || digit > 9) break;
    seq = seq * 10 + digit;
  }
  return seq;
}

const isEvent = (data: Buffer): boolean =>
  data.length > EVENT_PREFIX.length && data.compare(EVENT_PREFIX, 0, EVENT_PREFIX.length, 0, EVENT_PREFIX.length) === 0;

let sockets: WebSocket[] = [];
let counts: number[] = [];
let latencies: number[] = [];
let disorder = 0;
let contextCount = 1;
let cpuAtOpen = process.cpuUsage();

const reply = (message: FromSubscribers) => process.send?.(message);

async function open(url: string, contexts: string[], subscribers: number, measured: ReadonlySet<number>): Promise<void> {
  sockets = [];
  counts = [];
  latencies = [];
  disorder = 0;
  contextCount = contexts.length;
  for (let s = 0; s < subscribers; s++) {
    const ws = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    const index = s;
    counts.push(0);
    let lastSeq = 0;
    const subscribed = new Promise<void>((resolve) => {
      ws.on('message', (data: Buffer) => {
        if (!isEvent(data)) {
          if (data.includes('"caught_up"')) resolve();
          return;
        }
        counts[index] = (counts[index] ?? 0) + 1;
        let seq: number;
        if (measured.has(index)) {
          const now = wallClock();
          const message = JSON.parse(data.toString()) as { event: { seq: number; metadata: { t: number } } };
          latencies.push(now - message.event.metadata.t);
          seq = message.event.seq;
        } else {
          seq = seqOf(data);
        }
        if (seq <= lastSeq) disorder += 1;
        lastSeq = seq;
      });
    });
    ws.send(JSON.stringify({ type: 'subscribe', id: 's', filter: { contextIds: [contexts[s % contexts.length]] } }));
    await subscribed;
    sockets.push(ws);
  }
  cpuAtOpen = process.cpuUsage();
  reply({ type: 'ready' });
}

async function finish(total: number, timeoutMs: number): Promise<void> {
  // Subscriber s follows context s % contexts; the writer spreads event i over context i % contexts.
  const expected = counts.map((_, s) => Math.ceil((total - (s % contextCount)) / contextCount));
  const deadline = Date.now() + timeoutMs;
  while (counts.some((c, s) => c < (expected[s] as number)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  // Late duplicates would arrive right behind the last event; give them a moment.
  await new Promise((r) => setTimeout(r, 100));
  for (const ws of sockets) ws.terminate();
  const cpu = process.cpuUsage(cpuAtOpen);
  reply({ type: 'done', counts, disorder, latencies, cpuMs: (cpu.user + cpu.system) / 1000 });
}

process.on('message', (message: ToSubscribers) => {
  if (message.type === 'clock') reply({ type: 'clock', id: message.id, now: wallClock() });
  else if (message.type === 'open') void open(message.url, message.contexts, message.subscribers, new Set(message.measured));
  else void finish(message.total, message.timeoutMs);
});
process.on('disconnect', () => process.exit(0));
