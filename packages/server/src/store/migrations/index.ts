import type { Migration, MigrationProvider } from 'kysely';
import * as timeline from './001-timeline.js';
import * as checkpoints from './002-checkpoints.js';
import * as subscriptionsYjs from './003-subscriptions-yjs.js';
import * as search from './004-search.js';
import * as embeddings from './005-embeddings.js';

/**
 * The one migration set both stores run, in order. Add a file, never edit a
 * shipped one; the newest must not rewrite large tables (`npm run bench`
 * times it on a 1 GB store).
 */
const MIGRATIONS: Record<string, Migration> = {
  '001-timeline': timeline,
  '002-checkpoints': checkpoints,
  '003-subscriptions-yjs': subscriptionsYjs,
  '004-search': search,
  '005-embeddings': embeddings,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => MIGRATIONS,
};

export const MIGRATION_NAMES = Object.keys(MIGRATIONS);
