import { startPostgres } from '../../packages/server/src/test-support/postgres-server.js';
const pg = await startPostgres();
if (!pg) throw new Error('no pg');
process.env.BATON_BENCH_PG_URL = pg.url;
try {
  const { sizeBench } = await import('../src/timeline/size.js');
  const r = await sizeBench();
  console.log({ sqlite: r.sqlite, postgres: r.postgres, json: r.json });
} finally { pg.stop(); }
