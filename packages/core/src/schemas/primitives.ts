import { z } from 'zod';

/**
 * Strings that end up in indexed columns must be storable by both stores:
 * PostgreSQL rejects NUL in text, and an unpaired surrogate cannot be encoded
 * as UTF-8. Free text inside content blocks is stored as escaped JSON and may
 * hold anything.
 */
function isColumnSafe(value: string): boolean {
  return !value.includes('\u0000') && value.isWellFormed();
}

const columnSafeMessage = 'must not contain NUL characters or unpaired surrogates';

/** Free text stored in a column (titles, names). */
export const Label = z.string().max(10_000).refine(isColumnSafe, columnSafeMessage);

/** Long free text stored in a column (descriptions). */
export const LongText = z.string().max(1_000_000).refine(isColumnSafe, columnSafeMessage);

/** No control characters (NUL included) and no unpaired surrogates, checked in one pass. */
const NAME_SAFE = /^(?:[^\u0000-\u001f\ud800-\udfff]|[\ud800-\udbff][\udc00-\udfff])*$/;

/** A short name used for filtering: phase, runtime, actor id, tag. */
export const Name = z.string().min(1).max(256).regex(NAME_SAFE, 'must not contain control characters or unpaired surrogates');

/**
 * Ids are chosen by the server (ULIDs) or by the writer (ULID, UUID or any
 * URL-safe token), which makes retries idempotent.
 */
export const Id = z
  .string()
  .min(1)
  .max(128)
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9._:~-]*$/,
    'must be 1-128 URL-safe characters (letters, digits, . _ : ~ -), starting with a letter or digit',
  );

export const Timestamp = z.iso.datetime({ offset: true });

export const Json = z.json();
export type Json = z.infer<typeof Json>;

export const Metadata = z.record(z.string(), z.json());
export type Metadata = z.infer<typeof Metadata>;

export const Seq = z.number().int().positive();
