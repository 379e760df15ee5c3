import { BatonError, type ErrorCode, LIVE_CLOSE_CODES } from '@baton/core';

/** The one place domain errors become WebSocket close codes (4000–4999 belong to the application). */
export function closeCodeFor(error: unknown): { code: number; reason: string } {
  const baton = error instanceof BatonError ? error : new BatonError('internal', 'the live feed failed');
  const codes: Partial<Record<ErrorCode, number>> = {
    unauthenticated: LIVE_CLOSE_CODES.unauthenticated,
    forbidden: LIVE_CLOSE_CODES.forbidden,
  };
  // A close reason is limited to 123 bytes.
  const reason = Buffer.from(baton.message).subarray(0, 120).toString();
  return { code: codes[baton.code] ?? LIVE_CLOSE_CODES.internal, reason };
}

export function errorMessage(error: unknown, id?: string): string {
  const baton = error instanceof BatonError ? error : new BatonError('internal', 'the live feed failed to handle this message');
  return JSON.stringify({
    type: 'error',
    ...(id ? { id } : {}),
    error: { code: baton.code, message: baton.message, details: baton.details ?? {} },
  });
}
