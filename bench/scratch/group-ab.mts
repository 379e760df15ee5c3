import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appendGroup } from '../../packages/server/src/hub/append-batcher.js';
import { prepareEvents } from '../../packages/server/src/hub/prepare-event.js';
import { newId } from '../../packages/server/src/hub/ids.js';
import { Hub, localCaller, openSqliteStore } from '../../packages/server/src/index.js';
import { cpuTimer } from './cpu.mjs';
const dir = mkdtempSync(join(tmpdir(), 'ab-'));
const store = openSqliteStore({ dataDir: dir });
await store.migrate();
const hub = new Hub(store);
const caller = localCaller({ id: 'b', name: 'b', runtime: 'b', role: 'agent' });
const ctx = await hub.createContext({ title: 't' }, caller);
const body = { kind: 'activity', activityType: 'agent_action', actor: { id: 'claude', name: 'Claude Code', runtime: 'claude-code' }, content: [{ type: 'text', text: 'x'.repeat(120) }] };
// "before": each request its own transaction, as the hub did before group commit
const alone = async () => { const now = Date.now(); const prepared = prepareEvents([body], { contextId: ctx.id, caller, now, newId }, null); const [o] = await store.write((tx) => appendGroup(tx, [{ contextId: ctx.id, prepared }], now)); if (!o?.ok) throw new Error('x'); };
const grouped = async () => { await hub.appendEvent(ctx.id, body, caller); };
for (const rep of [0, 1, 2]) for (const [name, fn] of [['one tx per append', alone], ['group commit', grouped]] as const) {
  const n = 6000; let done = 0; const stop = cpuTimer();
  await Promise.all(Array.from({ length: 32 }, async () => { while (done < n) { done++; await fn(); } }));
  const { cpuMs, wallMs } = stop();
  if (rep > 0) console.log(name.padEnd(18), 'c=32', (n / (wallMs / 1000)).toFixed(0).padStart(6), '/s wall;', ((cpuMs * 1000) / n).toFixed(1), 'µs CPU/append');
}
await store.close();
