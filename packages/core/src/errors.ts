/**
 * The one error type every layer of baton throws. A code says what went wrong in
 * terms of the domain; each transport (HTTP, JSON-RPC, WebSocket close codes)
 * translates codes to its own wire form in exactly one place.
 */
export const ERROR_CODES = [
  'invalid_argument',
  'not_found',
  'conflict',
  'illegal_transition',
  'payload_too_large',
  'unauthenticated',
  'forbidden',
  'unavailable',
  'internal',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** One problem with one input field, named by its path ("events.3.content.0.text"). */
export interface FieldIssue {
  path: string;
  message: string;
}

export interface BatonErrorOptions {
  cause?: unknown;
  /** Machine-readable details that are safe to show to the caller. */
  details?: Record<string, unknown>;
}

export class BatonError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message: string, options: BatonErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'BatonError';
    this.code = code;
    this.details = options.details;
  }

  static invalid(issues: FieldIssue[], what = 'input'): BatonError {
    const first = issues[0];
    const message = first
      ? `invalid ${what}: ${first.path ? `${first.path}: ` : ''}${first.message}${issues.length > 1 ? ` (and ${issues.length - 1} more)` : ''}`
      : `invalid ${what}`;
    return new BatonError('invalid_argument', message, { details: { issues } });
  }

  static notFound(kind: string, id: string): BatonError {
    return new BatonError('not_found', `${kind} '${id}' was not found`, { details: { kind, id } });
  }
}

export function isBatonError(value: unknown): value is BatonError {
  return value instanceof BatonError;
}
