import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BenchTable } from './table.js';

/**
 * One benchmark module in a process of its own (started by run.ts): the
 * heap, JIT state and open files a previous benchmark left behind (the
 * handoff benchmark builds a million-event store in-process) cannot weigh on
 * the next one's measurements. The table goes back over the IPC channel.
 */
export type BenchReply = { table: BenchTable } | { error: string };

const name = process.argv[2] ?? '';
let reply: BenchReply;
try {
  const module = (await import(pathToFileURL(join(import.meta.dirname, `${name}-bench.ts`)).href)) as { run(): Promise<BenchTable> };
  reply = { table: await module.run() };
} catch (error) {
  reply = { error: String((error as Error).stack ?? error) };
}
process.send?.(reply, () => process.exit(0));
