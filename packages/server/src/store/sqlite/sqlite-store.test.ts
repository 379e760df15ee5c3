import { sqliteFactory } from '../../test-support/databases.js';
import { runStoreSuite } from '../store.case.js';

runStoreSuite(sqliteFactory);
