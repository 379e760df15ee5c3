import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** The `baton` package version (dist/ and src/ both sit one level below package.json). */
export const VERSION: string = (require('../package.json') as { version: string }).version;
