import { randomFillSync } from 'node:crypto';
import { monotonicFactory } from 'ulid';

/**
 * ulid's default PRNG asks the OS for one byte per character (16 calls per
 * id); on the append path that was a visible share of the CPU. The same
 * cryptographic bytes, drawn from a pool refilled 4 KB at a time.
 */
const pool = new Uint8Array(4096);
let next = pool.length;

function pooledRandom(): number {
  if (next === pool.length) {
    randomFillSync(pool);
    next = 0;
  }
  return (pool[next++] as number) / 256;
}

/** ULIDs: sortable by creation time, and monotonic within one process. */
export const newId: () => string = monotonicFactory(pooledRandom);
