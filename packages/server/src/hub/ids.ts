import { randomFillSync } from 'node:crypto';
import { incrementBase32, TIME_LEN, ulid } from 'ulid';

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

let lastTime = 0;
let timePart = '';
let randomPart = '';

/**
 * ULIDs: sortable by creation time, and monotonic within one process. The
 * same rule as ulid's monotonicFactory (a new millisecond draws a fresh
 * random part; within one, the last is incremented), but the encoded time is
 * kept for its millisecond instead of encoded again for every id: a batch of
 * a thousand appends shares a handful of milliseconds.
 */
export function newId(): string {
  const now = Date.now();
  if (now <= lastTime) {
    randomPart = incrementBase32(randomPart);
  } else {
    lastTime = now;
    const fresh = ulid(now, pooledRandom);
    timePart = fresh.slice(0, TIME_LEN);
    randomPart = fresh.slice(TIME_LEN);
  }
  return timePart + randomPart;
}
