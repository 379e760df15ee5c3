import { Json } from '@baton/core';
import { z } from 'zod';

type JsonSchema = Record<string, unknown>;

const LOCAL_REF = /^#\/\$defs\/(.+)$/;

/**
 * Turns zod schemas into JSON Schema for an OpenAPI 3.1 document. zod puts a
 * recursive schema (every `z.json()`) in the schema's own `$defs` and points
 * at it with `#/$defs/…`; inside an OpenAPI document `#` is the document, so
 * those definitions move to `components.schemas`, and identical ones (the many
 * copies of the JSON value schema) are stored once.
 */
export class SchemaComponents {
  readonly schemas: Record<string, JsonSchema> = {};
  readonly #byShape = new Map<string, string>();
  readonly #jsonValueShape: string;
  #next = 1;

  constructor() {
    const sample = z.toJSONSchema(z.object({ value: Json }), { target: 'draft-2020-12' }) as { $defs?: Record<string, JsonSchema> };
    const [name, def] = Object.entries(sample.$defs ?? {})[0] ?? [];
    this.#jsonValueShape = name && def ? shape(def, name) : '';
  }

  convert(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
    const {
      $defs,
      $schema: _dialect,
      ...root
    } = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonSchema & {
      $defs?: Record<string, JsonSchema>;
    };
    const names = new Map<string, string>();
    for (const [local, def] of Object.entries($defs ?? {})) names.set(local, this.#register(local, def));
    const rewrite = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(rewrite);
      if (typeof value !== 'object' || value === null) return value;
      return Object.fromEntries(
        Object.entries(value).map(([key, child]) => {
          const local = key === '$ref' && typeof child === 'string' ? LOCAL_REF.exec(child)?.[1] : undefined;
          return [key, local ? `#/components/schemas/${names.get(local)}` : rewrite(child)];
        }),
      );
    };
    for (const [local, def] of Object.entries($defs ?? {})) {
      const name = names.get(local) as string;
      this.schemas[name] ??= rewrite(def) as JsonSchema;
    }
    return rewrite(root) as JsonSchema;
  }

  #register(local: string, def: JsonSchema): string {
    const key = shape(def, local);
    // A definition that refers to other definitions keeps a name of its own.
    const shareable = !key.includes('"#/$defs/');
    const known = shareable ? this.#byShape.get(key) : undefined;
    if (known) return known;
    const name = key === this.#jsonValueShape ? 'JsonValue' : `Schema${this.#next++}`;
    if (shareable) this.#byShape.set(key, name);
    return name;
  }
}

/** A definition's text with references to itself made anonymous, so copies compare equal. */
function shape(def: JsonSchema, name: string): string {
  return JSON.stringify(def).replaceAll(JSON.stringify(`#/$defs/${name}`), '"#self"');
}
