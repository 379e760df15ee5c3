import { Command } from 'commander';
import { openStore } from '../store/open-store.js';
import type { Store } from '../store/store.js';
import { configFrom, type StoreFlags, storeOptions } from './options.js';

export function migrateCommand(): Command {
  return storeOptions(new Command('migrate').description('bring the store’s schema up to date, showing each step')).action(
    async (flags: StoreFlags) => {
      let store: Store;
      try {
        store = openStore(configFrom(flags));
      } catch (error) {
        process.stderr.write(`baton migrate: ${(error as Error).message}\n`);
        process.exitCode = 1;
        return;
      }
      try {
        const report = await store.migrate((step) => {
          if (step.status === 'running') process.stderr.write(`migrating ${step.name} …\n`);
          else process.stderr.write(`migrated  ${step.name} in ${Math.round(step.ms ?? 0)} ms\n`);
        });
        process.stdout.write(
          report.applied.length
            ? `applied ${report.applied.length} migration(s); schema is at ${report.current}\n`
            : `schema is up to date at ${report.current}\n`,
        );
      } catch (error) {
        process.stderr.write(`baton migrate: ${(error as Error).message}\n`);
        process.exitCode = 1;
      } finally {
        await store.close();
      }
    },
  );
}
