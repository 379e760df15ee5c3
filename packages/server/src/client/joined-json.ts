/**
 * JSON values already serialized (as text or UTF-8 bytes) joined into the
 * bytes of one JSON array, between `before` and `after`: one Buffer assembled
 * outside the JS heap, with no large string for the GC to copy.
 */
export function joinedJson(values: readonly (string | Uint8Array)[], before = '', after = ''): Buffer {
  const parts: Uint8Array[] = [Buffer.from(`${before}[`)];
  for (const [i, value] of values.entries()) {
    if (i > 0) parts.push(COMMA);
    parts.push(typeof value === 'string' ? Buffer.from(value) : value);
  }
  parts.push(Buffer.from(`]${after}`));
  return Buffer.concat(parts);
}

const COMMA = Buffer.from(',');
