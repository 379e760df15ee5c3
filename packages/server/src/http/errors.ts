import { BatonError, type ErrorCode } from '@baton/core';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

/** The one place domain error codes become HTTP statuses. */
const STATUS: Record<ErrorCode, ContentfulStatusCode> = {
  invalid_argument: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  illegal_transition: 409,
  payload_too_large: 413,
  unavailable: 503,
  internal: 500,
};

export interface ErrorBody {
  error: { code: ErrorCode; message: string; details: Record<string, unknown> };
}

export function toHttpError(error: unknown): { status: ContentfulStatusCode; body: ErrorBody } {
  const baton =
    error instanceof BatonError
      ? error
      : new BatonError('internal', 'the server failed to handle this request; see its log', { cause: error });
  return {
    status: STATUS[baton.code],
    body: { error: { code: baton.code, message: baton.message, details: baton.details ?? {} } },
  };
}
