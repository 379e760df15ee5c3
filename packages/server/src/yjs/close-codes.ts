import { BatonError, type ErrorCode, LIVE_CLOSE_CODES } from '@baton/core';

/**
 * Close codes of the Yjs bridge: the live feed's, plus 4400 and 4404. A stock
 * y-websocket client stops reconnecting after a 4400–4499 code (the server's
 * final word) and retries after any other, e.g. 1011 or 1013.
 */
export const YJS_CLOSE_CODES = {
  ...LIVE_CLOSE_CODES,
  badRequest: 4400,
  notFound: 4404,
  /** The client does not read fast enough; it reconnects and syncs from its state vector. */
  tryAgainLater: 1013,
  /** The document failed on the server; the client reconnects to a fresh copy. */
  serverError: 1011,
} as const;

/** The one place domain errors become Yjs close codes. */
export function yjsCloseFor(error: unknown): { code: number; reason: string } {
  const baton = error instanceof BatonError ? error : new BatonError('internal', 'the Yjs bridge failed; try again');
  const codes: Partial<Record<ErrorCode, number>> = {
    unauthenticated: YJS_CLOSE_CODES.unauthenticated,
    forbidden: YJS_CLOSE_CODES.forbidden,
    not_found: YJS_CLOSE_CODES.notFound,
    invalid_argument: YJS_CLOSE_CODES.badRequest,
  };
  // A close reason is limited to 123 bytes.
  const reason = Buffer.from(baton.message).subarray(0, 120).toString();
  return { code: codes[baton.code] ?? YJS_CLOSE_CODES.serverError, reason };
}
