import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NewEventInput } from '@baton/core';
import { createLogger, startHubServer } from 'baton';
import { chromium, type Page } from 'playwright-core';
import { benchScale } from './scale.js';
import type { BenchTable } from './table.js';
import { median, ms, percentile, verdict } from './timeline/stats.js';

/**
 * The web UI's Conversations tab on a 10,000-turn thread that includes one
 * 5 MB turn (reference/003: "a single turn's content may be up to 5 MB …
 * UI must virtualize"), in headless Chromium against a real `baton` hub.
 *
 * - open: navigation start → the first turns painted, and → all 10,000
 *   turns loaded and counted ("10,000 of 10,000 turns"); target ≤ 1 s.
 * - scroll: the list scrolled by a fixed step every animation frame from top
 *   to bottom, then jumped to random places; frame times from
 *   requestAnimationFrame. Smooth = p95 ≤ 33 ms (30 fps) with no frame over 100 ms.
 */
const CHROMIUM = process.env.BATON_CHROMIUM ?? '/usr/bin/chromium';
const TURNS = 10_000;
const BIG_TURN_BYTES = 5 * 1024 * 1024;

function turns(count: number): NewEventInput[] {
  const phases = ['plan', 'critique', 'adjudicate', 'review', 'execute', 'verify'];
  const out: NewEventInput[] = [];
  for (let i = 0; i < count; i++) {
    const lines = 3 + (i % 40);
    out.push({
      kind: 'turn',
      direction: i % 2 === 0 ? 'prompt' : 'response',
      phase: phases[Math.floor((i / count) * phases.length)] ?? 'verify',
      round: i % 3,
      speaker: ['claude-planner', 'codex-critic', 'executor'][i % 3] ?? 'executor',
      provider: ['anthropic', 'openai', 'anthropic'][i % 3] ?? null,
      model: 'model-x',
      usage: { inputTokens: 1000 + i, outputTokens: 200 + (i % 500), costUsd: 0.001 * (i % 20) },
      content: [
        {
          type: 'text',
          text: `## Turn ${i}\n\n${Array.from({ length: lines }, (_, l) => `line ${l} of turn ${i}: some **markdown** with \`code\``).join('\n')}\n\n\`\`\`ts\nconst x${i} = ${i};\n\`\`\``,
        },
      ],
    });
  }
  // The 5 MB turn near the top, so it is on screen when the tab opens: the worst case.
  const big = 'A large tool output line that goes on and on, repeated to make a 5 MB turn.\n';
  out[3] = {
    kind: 'turn',
    direction: 'response',
    phase: 'plan',
    speaker: 'executor',
    provider: 'anthropic',
    content: [{ type: 'text', text: big.repeat(Math.ceil(BIG_TURN_BYTES / big.length)) }],
  };
  return out;
}

/**
 * Runs in the page. A string, not a function: tsx's transpiler would wrap
 * named functions in a helper that does not exist in the page.
 */
const SCROLL_SCRIPT = `(async () => {
  const list = document.querySelector('[data-testid="turn-list"]');
  const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
  const deltas = [];
  let last = await frame();
  // A fling: 400 px per frame for 600 frames.
  for (let i = 0; i < 600; i++) {
    list.scrollTop += 400;
    const now = await frame();
    deltas.push(now - last);
    last = now;
  }
  // Jumps, as when dragging the scrollbar: each place painted (two frames later).
  const jumpTimes = [];
  for (let i = 0; i < 40; i++) {
    const t0 = performance.now();
    list.scrollTop = (((i * 7919) % 100) / 100) * list.scrollHeight;
    await frame();
    await frame();
    jumpTimes.push(performance.now() - t0);
  }
  return { deltas, jumpTimes };
})()`;

/** The page's performance.now() at the first animation frame where `condition` (an expression) holds. */
async function timeWhen(page: Page, condition: string): Promise<number> {
  const handle = await page.waitForFunction(`(${condition}) && performance.now()`, null, { polling: 'raf', timeout: 60_000 });
  return (await handle.jsonValue()) as number;
}

async function post(url: string, body: unknown): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-baton-actor': 'bench' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`POST ${url}: ${response.status} ${await response.text()}`);
  return response.json();
}

export async function run(): Promise<BenchTable> {
  if (!existsSync(CHROMIUM)) {
    return {
      title: 'Web UI: 10,000-turn thread in Chromium',
      columns: ['skipped'],
      rows: [[`no Chromium at ${CHROMIUM} (apt-get install chromium)`]],
    };
  }
  const scale = benchScale();
  const reps = scale.pick(2, 5);
  const dir = mkdtempSync(join(tmpdir(), 'baton-web-bench-'));
  const hub = await startHubServer(
    { dataDir: dir, databaseUrl: undefined, host: '127.0.0.1', port: 0, token: undefined, bodyLimit: 16 * 1024 * 1024 },
    createLogger('silent'),
  );
  const profile = mkdtempSync(join(tmpdir(), 'chr-'));
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1280, height: 900 },
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  try {
    const context = (await post(`${hub.url}/api/v1/contexts`, { title: 'Bench thread' })) as { id: string };
    const all = turns(TURNS);
    for (let i = 0; i < all.length; i += 1000)
      await post(`${hub.url}/api/v1/contexts/${context.id}/events`, { events: all.slice(i, i + 1000) });

    const firstPaint: number[] = [];
    const allLoaded: number[] = [];
    const frames: number[] = [];
    const jumps: number[] = [];
    for (let rep = 0; rep < reps; rep++) {
      const page = await browser.newPage();
      await page.goto(`${hub.url}/contexts/${context.id}/conversations`, { waitUntil: 'commit' });
      // Times are read in the page, from its navigation start (performance.now()).
      const count = TURNS.toLocaleString('en-US');
      firstPaint.push(await timeWhen(page, "document.querySelector('article.turn') !== null"));
      allLoaded.push(await timeWhen(page, `document.querySelector('[aria-live="polite"]')?.textContent === '${count} of ${count} turns'`));
      const sample = (await page.evaluate(SCROLL_SCRIPT)) as { deltas: number[]; jumpTimes: number[] };
      frames.push(...sample.deltas.slice(5));
      jumps.push(...sample.jumpTimes);
      await page.close();
    }
    const open = median(allLoaded);
    const p95 = percentile(frames, 95);
    const worst = Math.max(...frames);
    return {
      title: 'Web UI: Conversations tab, 10,000 turns incl. one 5 MB turn, headless Chromium',
      columns: ['measure', 'median', 'p95', 'max', 'target', 'verdict'],
      rows: [
        [
          'open → first turns painted',
          ms(median(firstPaint)),
          ms(percentile(firstPaint, 95)),
          ms(Math.max(...firstPaint)),
          '≤ 1 s',
          verdict(Math.max(...firstPaint) <= 1000),
        ],
        [
          'open → all 10,000 turns loaded',
          ms(open),
          ms(percentile(allLoaded, 95)),
          ms(Math.max(...allLoaded)),
          '≤ 1 s',
          verdict(open <= 1000),
        ],
        [
          'scroll frame time (400 px/frame)',
          ms(median(frames)),
          ms(p95),
          ms(worst),
          'p95 ≤ 33 ms, max ≤ 100 ms',
          verdict(p95 <= 33 && worst <= 100),
        ],
        [
          'jump to a random place → painted',
          ms(median(jumps)),
          ms(percentile(jumps, 95)),
          ms(Math.max(...jumps)),
          'p95 ≤ 100 ms',
          verdict(percentile(jumps, 95) <= 100),
        ],
      ],
      notes: [
        `${reps} page loads; times from the page's navigation start (performance.now()), UI served by the hub from packages/server/dist/web.`,
        'Frame times are requestAnimationFrame deltas in headless Chromium with --disable-gpu (software rendering) on this machine.',
        `Machine load while measuring: ${loadavg()[0]?.toFixed(1)} (1-min load average) on ${availableParallelism()} cores; browser, hub and bench share them.`,
      ],
    };
  } finally {
    await browser.close();
    await hub.close();
    rmSync(profile, { recursive: true, force: true });
    rmSync(dir, { recursive: true, force: true });
  }
}
