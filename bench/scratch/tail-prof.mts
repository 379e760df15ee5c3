import { Hub, localCaller, openSqliteStore } from '../../packages/server/src/index.js';
import { buildTimelineStore } from '../src/timeline/big-store.js';
import { scratchDir } from '../src/timeline/sqlite-files.js';
import { cpuTimer } from './cpu.mjs';
const s = scratchDir('tailprof');
const built = await buildTimelineStore(s.dir, 50000);
const store = openSqliteStore({ dataDir: s.dir });
const hub = new Hub(store);
const caller = localCaller({ id: 'claude-code-7f3a', name: 'Claude Code', runtime: 'claude-code', role: 'agent' });
for (let rep = 0; rep < 3; rep++) {
  const stop = cpuTimer();
  for (let i = 0; i < 1000; i++) await hub.listEvents(built.contextId, { tail: '100' }, caller);
  const { cpuMs, wallMs } = stop();
  console.log('tail', (wallMs / 1000).toFixed(3), 'ms wall;', (cpuMs / 1000).toFixed(3), 'ms CPU per read');
}
const page = await hub.listEvents(built.contextId, { tail: '100' }, caller);
console.log('json bytes', JSON.stringify(page).length);
await store.close(); s.remove();
