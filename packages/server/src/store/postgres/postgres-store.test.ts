import { postgresFactory } from '../../test-support/databases.js';
import { runStoreSuite } from '../store.case.js';

runStoreSuite(postgresFactory());
