import type { z } from 'zod';
import { BatonError, type FieldIssue } from './errors.js';

/** zod issues as field paths a user can act on. */
export function zodIssues(error: z.core.$ZodError, prefix: readonly PropertyKey[] = []): FieldIssue[] {
  return error.issues.map((issue) => {
    // An unknown key is reported on its parent object; name the key itself.
    const keys = issue.code === 'unrecognized_keys' ? issue.keys : [];
    const path = [...prefix, ...issue.path, ...(keys.length === 1 ? keys : [])];
    return { path: path.map(String).join('.'), message: issue.message };
  });
}

/** Parses `value` or throws an `invalid_argument` BatonError naming each bad field. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown, what = 'input'): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw BatonError.invalid(zodIssues(result.error), what);
}
