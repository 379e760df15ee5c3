import { decodeTime, isValid } from 'ulid';
import { describe, expect, it } from 'vitest';
import { newId } from './ids.js';

describe('newId', () => {
  it('gives valid ULIDs of the current time that sort in the order they were made, also within one millisecond', () => {
    const before = Date.now();
    const ids = Array.from({ length: 20_000 }, () => newId());
    const after = Date.now();
    expect(ids.every((id) => isValid(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    for (const id of [ids[0] as string, ids.at(-1) as string]) {
      expect(decodeTime(id)).toBeGreaterThanOrEqual(before);
      expect(decodeTime(id)).toBeLessThanOrEqual(after);
    }
    // Twenty thousand ids take a few milliseconds: many share one, and still differ.
    const perMillisecond = new Map<number, number>();
    for (const id of ids) perMillisecond.set(decodeTime(id), (perMillisecond.get(decodeTime(id)) ?? 0) + 1);
    expect(Math.max(...perMillisecond.values())).toBeGreaterThan(1);
  });
});
