import { BatonError, zodIssues } from '@baton/core';
import { z } from 'zod';

/**
 * What any path parameter of the REST routes may hold, whatever it names (an
 * id, a state key, an artifact name): a value no record can have — a control
 * character, an unpaired surrogate, 5,000 characters — is a 400 naming the
 * parameter and never reaches the store, where PostgreSQL would reject a NUL
 * in text with a 500. Anything else that names nothing is the handler's 404.
 */
export const PathParam = z
  .string()
  .min(1)
  .max(512)
  .refine((v) => v.isWellFormed() && !/[\u0000-\u001f\u007f]/.test(v), 'must not contain control characters or unpaired surrogates');

/** Validates a route's decoded path parameters. */
export function checkParams(params: Record<string, string>): Record<string, string> {
  for (const [name, value] of Object.entries(params)) {
    const result = PathParam.safeParse(value);
    if (!result.success) throw BatonError.invalid(zodIssues(result.error, [name]), 'path parameter');
  }
  return params;
}
