import { fork } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchReply } from './run-one.js';
import { benchScale } from './scale.js';
import { settle } from './settle.js';
import { type BenchTable, renderTable } from './table.js';

/**
 * `npm run bench`: runs every bench/src/*-bench.ts module (each exports
 * `run(): Promise<BenchTable>`), each in a fresh process after the machine
 * has settled, prints each table as it finishes, and writes
 * them all to bench/results/latest.md. BATON_BENCH_ONLY=timeline,mcp runs a
 * subset; BATON_BENCH_SCALE=quick a smaller, faster pass.
 */
const here = dirname(fileURLToPath(import.meta.url));

/** Runs one benchmark module in a fresh process (run-one.ts) and gives back its table. */
function runAlone(name: string): Promise<BenchTable> {
  return new Promise((resolve, reject) => {
    const child = fork(join(here, 'run-one.ts'), [name], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let reply: BenchReply | undefined;
    child.on('message', (message: BenchReply) => {
      reply = message;
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (reply && 'table' in reply) resolve(reply.table);
      else reject(new Error(reply && 'error' in reply ? reply.error : `the ${name} benchmark exited with ${code} and no table`));
    });
  });
}

const only = (process.env.BATON_BENCH_ONLY ?? '')
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean);

const names = readdirSync(here)
  .filter((file) => file.endsWith('-bench.ts'))
  .map((file) => file.slice(0, -'-bench.ts'.length))
  .filter((name) => only.length === 0 || only.includes(name))
  .sort();

const scale = benchScale();
const started = new Date();
const header = [
  '# baton benchmarks',
  '',
  `\`npm run bench\` (BATON_BENCH_SCALE=${scale.name}) on ${started.toISOString().slice(0, 10)}: Node ${process.version}, ` +
    `${availableParallelism()} × ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${process.platform}/${process.arch}.`,
  '',
].join('\n');
process.stdout.write(`${header}\n`);

const rendered: string[] = [];
let failed = 0;
for (const name of names) {
  const waited = await settle();
  const t0 = performance.now();
  process.stderr.write(`bench: ${name} … (after ${(waited / 1000).toFixed(1)} s for the machine to settle)\n`);
  let table: BenchTable;
  try {
    table = await runAlone(name);
  } catch (error) {
    failed += 1;
    // One broken benchmark must not hide the others' results.
    table = { title: name, columns: ['error'], rows: [[String((error as Error).message ?? error)]] };
  }
  const text = renderTable(table);
  rendered.push(text);
  process.stdout.write(`${text}\n`);
  process.stderr.write(`bench: ${name} done in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
}

const out = join(here, '..', 'results');
mkdirSync(out, { recursive: true });
writeFileSync(join(out, 'latest.md'), `${header}\n${rendered.join('\n')}`);
process.stderr.write(`bench: wrote ${join(out, 'latest.md')}\n`);
if (failed > 0) process.exitCode = 1;
