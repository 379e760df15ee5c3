/** Small statistics and formatting helpers shared by the timeline benchmarks. */

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/** Nearest-rank percentile (p in 0..100) of unsorted values. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))] as number;
}

/** Runs `fn` `reps` times and returns each run's result. */
export async function repeat<T>(reps: number, fn: (rep: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let rep = 0; rep < reps; rep++) out.push(await fn(rep));
  return out;
}

/** Latency samples of `iterations` sequential calls, in milliseconds. */
export async function sampleLatency(iterations: number, fn: (i: number) => Promise<unknown> | unknown): Promise<number[]> {
  const samples: number[] = new Array(iterations);
  for (let i = 0; i < iterations; i++) {
    const t0 = performance.now();
    await fn(i);
    samples[i] = performance.now() - t0;
  }
  return samples;
}

export const int = (n: number): string => Math.round(n).toLocaleString('en-US');

export const ms = (n: number): string => (n >= 100 ? `${int(n)} ms` : n >= 10 ? `${n.toFixed(1)} ms` : `${n.toFixed(2)} ms`);

/** Decimal units (1 MB = 10^6 bytes), the stricter reading of the targets. */
export function bytes(n: number): string {
  if (n >= 1e9) return `${(n / 1e9).toFixed(2)} GB`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(2)} MB`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)} KB`;
  return `${n} B`;
}

/** baton ÷ reference, e.g. "0.62×". */
export const ratio = (baton: number, reference: number): string => `${(baton / reference).toFixed(2)}×`;

export const verdict = (pass: boolean): string => (pass ? 'pass' : '**miss**');
