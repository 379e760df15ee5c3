/**
 * BATON_BENCH_SCALE: `full` (the default, the README's numbers) or `quick`
 * (a smoke pass of a minute or so). Each benchmark picks its sizes with `pick`.
 */
export interface BenchScale {
  name: 'quick' | 'full';
  pick<T>(quick: T, full: T): T;
}

export function benchScale(env: NodeJS.ProcessEnv = process.env): BenchScale {
  const raw = (env.BATON_BENCH_SCALE ?? 'full').trim().toLowerCase();
  if (raw !== 'quick' && raw !== 'full') throw new Error(`BATON_BENCH_SCALE must be 'quick' or 'full', not '${raw}'`);
  return { name: raw, pick: (quick, full) => (raw === 'quick' ? quick : full) };
}
