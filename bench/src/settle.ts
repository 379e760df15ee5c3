import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** Idle and total jiffies of all CPUs, from /proc/stat (null where there is none). */
function cpuTimes(): { idle: number; total: number } | null {
  try {
    const fields = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).slice(1).map(Number);
    const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
    return { idle, total: fields.reduce((a, b) => a + b, 0) };
  } catch {
    return null;
  }
}

/**
 * Lets the machine settle before a benchmark: writes back what the previous
 * one left dirty (a 1 GB store is gigabytes of page cache to flush, which
 * the kernel would otherwise do in the middle of the next measurement), then
 * waits, up to `maxMs`, for a half second in which the CPUs are at least 90%
 * idle. Returns how long it waited.
 */
export async function settle(maxMs = 30_000): Promise<number> {
  const t0 = performance.now();
  try {
    execFileSync('sync', { stdio: 'ignore' });
  } catch {
    // No sync(1): nothing to flush with.
  }
  while (performance.now() - t0 < maxMs) {
    const before = cpuTimes();
    await sleep(500);
    const after = cpuTimes();
    if (!before || !after) break;
    const total = after.total - before.total;
    if (total <= 0 || (after.idle - before.idle) / total >= 0.9) break;
  }
  return performance.now() - t0;
}
