import type { TestProject } from 'vitest/node';
import { startPostgres } from './postgres-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A PostgreSQL server for the store suite, or null when none can run here. */
    postgresUrl: string | null;
  }
}

/**
 * PostgreSQL for the tests: BATON_TEST_PG_URL when set (CI starts a server and
 * sets it); otherwise a throwaway server from the local PostgreSQL binaries.
 * Under CI a missing server fails the run; elsewhere the PostgreSQL tests say
 * so in one line and skip.
 */
export default async function setup(project: TestProject) {
  const given = process.env.BATON_TEST_PG_URL;
  if (given) {
    project.provide('postgresUrl', given);
    return;
  }
  const server = await startPostgres();
  if (!server) {
    if (process.env.CI) throw new Error('CI=true but no PostgreSQL: set BATON_TEST_PG_URL or install postgresql');
    process.stderr.write(
      'baton tests: no PostgreSQL server found (set BATON_TEST_PG_URL or install postgresql); PostgreSQL store tests skip\n',
    );
    project.provide('postgresUrl', null);
    return;
  }
  project.provide('postgresUrl', server.url);
  return () => server.stop();
}
