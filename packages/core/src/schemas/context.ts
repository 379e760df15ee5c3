import { z } from 'zod';
import { Actor } from './actor.js';
import { Id, Label, LongText, Metadata, Seq, Timestamp } from './primitives.js';

/** Where an imported context came from (DESIGN §5: provenance is preserved). */
export const Provenance = z.strictObject({
  format: z.string().min(1).max(64),
  uri: z.string().max(4096).nullable().default(null),
  importedAt: Timestamp,
});

/** The unit of sharing: a plan, a thread, a room, A2A's contextId. */
export const Context = z.strictObject({
  id: Id,
  title: Label,
  description: LongText,
  owner: Actor.nullable(),
  parentId: Id.nullable(),
  metadata: Metadata,
  importedFrom: Provenance.nullable(),
  /** Events on the timeline, and the newest one's seq (0 when empty). */
  eventCount: z.number().int().nonnegative(),
  lastSeq: z.number().int().nonnegative(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Context = z.infer<typeof Context>;

export const NewContext = z.strictObject({
  id: Id.optional(),
  title: Label.default(''),
  description: LongText.default(''),
  owner: Actor.nullable().optional(),
  parentId: Id.nullable().default(null),
  metadata: Metadata.default({}),
  importedFrom: Provenance.nullable().default(null),
});
export type NewContext = z.infer<typeof NewContext>;
export type NewContextInput = z.input<typeof NewContext>;

export const ContextPatch = z
  .strictObject({
    title: Label.optional(),
    description: LongText.optional(),
    parentId: Id.nullable().optional(),
    metadata: Metadata.optional(),
  })
  .refine((p) => Object.keys(p).length > 0, { message: 'name at least one field to change' });
export type ContextPatch = z.infer<typeof ContextPatch>;

export const ContextQuery = z.strictObject({
  /** Case-insensitive match on title or description (a column-safe Label: it reaches SQL). */
  q: Label.max(256).optional(),
  parentId: Id.optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  /** Opaque cursor from the previous page's `nextCursor`. */
  cursor: z.string().max(512).optional(),
});
export type ContextQuery = z.infer<typeof ContextQuery>;

export { Seq };
