import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hub, localCaller, openSqliteStore } from '../../packages/server/src/index.js';
import { activityEvent, seeded } from '../src/timeline/events.js';
import { cpuTimer } from './cpu.mjs';
const caller = localCaller({ id: 'b', name: 'b', runtime: 'b', role: 'agent' });
for (let rep = 0; rep < 4; rep++) {
  const dir = mkdtempSync(join(tmpdir(), 'prof-'));
  const store = openSqliteStore({ dataDir: dir });
  await store.migrate();
  const hub = new Hub(store);
  const ctx = await hub.createContext({ title: 't' }, caller);
  const rand = seeded(rep);
  const inputs = Array.from({ length: 50000 }, () => activityEvent(rand, []));
  const stop = cpuTimer();
  for (let i = 0; i < inputs.length; i += 1000) await hub.appendEvents(ctx.id, inputs.slice(i, i + 1000), caller);
  const { cpuMs, wallMs } = stop();
  console.log('hub', (inputs.length / (wallMs / 1000)).toFixed(0), 'rows/s wall;', ((cpuMs * 1000) / inputs.length).toFixed(2), 'µs CPU/row');
  await store.close();
}
