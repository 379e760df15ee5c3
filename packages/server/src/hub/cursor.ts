import { BatonError, Id } from '@baton/core';

/** Opaque keyset cursors: `<millis>:<id>` in base64url, so clients never build them. */
export function encodeCursor(millis: number, id: string): string {
  return Buffer.from(`${millis}:${id}`, 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string): { millis: number; id: string } {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const colon = text.indexOf(':');
  const millis = Number(text.slice(0, colon));
  // A forged id must fail here: it would reach SQL, and PostgreSQL rejects NUL in text.
  if (colon < 1 || !Number.isSafeInteger(millis) || !Id.safeParse(text.slice(colon + 1)).success) {
    throw BatonError.invalid(
      [{ path: 'cursor', message: 'is not a cursor this server issued; pass nextCursor from a previous page' }],
      'query',
    );
  }
  return { millis, id: text.slice(colon + 1) };
}
