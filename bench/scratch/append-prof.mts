import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hub, localCaller, openSqliteStore } from '../../packages/server/src/index.js';
import { cpuTimer } from './cpu.mjs';
const dir = mkdtempSync(join(tmpdir(), 'prof-'));
const store = openSqliteStore({ dataDir: dir });
await store.migrate();
const hub = new Hub(store);
const caller = localCaller({ id: 'b', name: 'b', runtime: 'b', role: 'agent' });
const ctx = await hub.createContext({ title: 't' }, caller);
const body = { kind: 'activity', activityType: 'agent_action', actor: { id: 'claude', name: 'Claude Code', runtime: 'claude-code' }, content: [{ type: 'text', text: 'x'.repeat(120) }] };
for (const conc of [1, 32, 1, 32]) {
  const n = 5000;
  const stop = cpuTimer();
  let done = 0;
  await Promise.all(Array.from({ length: conc }, async () => { while (done < n) { done++; await hub.appendEvent(ctx.id, body, caller); } }));
  const { cpuMs, wallMs } = stop();
  console.log('conc', conc, (n / (wallMs / 1000)).toFixed(0), '/s wall;', ((cpuMs * 1000) / n).toFixed(1), 'µs CPU/append');
}
const c = await hub.getContext(ctx.id, caller);
console.log('eventCount', c.eventCount);
