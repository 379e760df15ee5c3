import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { benchScale } from './scale.js';
import { settle } from './settle.js';
import { type BenchTable, renderTable } from './table.js';

/**
 * `npm run bench`: runs every bench/src/*-bench.ts module (each exports
 * `run(): Promise<BenchTable>`), prints each table as it finishes, and writes
 * them all to bench/results/latest.md. BATON_BENCH_ONLY=timeline,mcp runs a
 * subset; BATON_BENCH_SCALE=quick a smaller, faster pass.
 */
interface BenchModule {
  run(): Promise<BenchTable>;
}

const here = dirname(fileURLToPath(import.meta.url));
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
    const module = (await import(pathToFileURL(join(here, `${name}-bench.ts`)).href)) as BenchModule;
    table = await module.run();
  } catch (error) {
    failed += 1;
    // One broken benchmark must not hide the others' results.
    table = { title: name, columns: ['error'], rows: [[String((error as Error).stack ?? error)]] };
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
