import { Hub, localCaller, openSqliteStore } from '../../packages/server/src/index.js';
import { ACTORS, activityEvent, benchId, prepare, seeded } from '../src/timeline/events.js';
import { rawConnection, scratchDir } from '../src/timeline/sqlite-files.js';
import { cpuTimer } from './cpu.mjs';
const caller = localCaller({ id: 'b', name: 'b', runtime: 'b', role: 'agent' });
const N = 50000;
for (let rep = 0; rep < 3; rep++) {
  const rand = seeded(rep);
  const inputs = Array.from({ length: N }, () => activityEvent(rand, []));
  // hub
  let s = scratchDir('ab'); let store = openSqliteStore({ dataDir: s.dir }); await store.migrate();
  let hub = new Hub(store); let ctx = await hub.createContext({ title: 't' }, caller);
  let stop = cpuTimer();
  for (let i = 0; i < N; i += 1000) await hub.appendEvents(ctx.id, inputs.slice(i, i + 1000), caller);
  const h = stop(); await store.close();
  const db0 = rawConnection(s.file, { readonly: true }); const rows = db0.prepare('SELECT * FROM events ORDER BY seq').all() as Record<string, unknown>[]; db0.close(); s.remove();
  // store
  s = scratchDir('ab'); store = openSqliteStore({ dataDir: s.dir }); await store.migrate();
  hub = new Hub(store); ctx = await hub.createContext({ title: 't' }, caller);
  const prepared = inputs.map((x) => prepare({ actor: ACTORS[0], ...x }, ctx.id, benchId()));
  stop = cpuTimer();
  for (let i = 0; i < N; i += 1000) { const b = prepared.slice(i, i + 1000); await store.write((tx) => tx.appendEvents(b, Date.now())); }
  const st = stop(); await store.close(); s.remove();
  // raw
  s = scratchDir('ab'); store = openSqliteStore({ dataDir: s.dir }); await store.migrate(); await store.close();
  const db = rawConnection(s.file); const cols = Object.keys(rows[0]!);
  const ins = db.prepare(`INSERT INTO events (${cols.join(',')}) VALUES (${cols.map((c) => '@' + c).join(',')})`);
  const tx = db.transaction((part: Record<string, unknown>[]) => { for (const r of part) ins.run(r); });
  stop = cpuTimer();
  for (let i = 0; i < N; i += 1000) tx(rows.slice(i, i + 1000));
  const r = stop(); db.close(); s.remove();
  const us = (x: { cpuMs: number }) => ((x.cpuMs * 1000) / N).toFixed(2);
  console.log(`CPU µs/row: hub ${us(h)}  store ${us(st)}  raw ${us(r)}  | ratio by CPU: hub ${(r.cpuMs / h.cpuMs).toFixed(2)} store ${(r.cpuMs / st.cpuMs).toFixed(2)} | wall ratio hub ${(r.wallMs / h.wallMs).toFixed(2)} store ${(r.wallMs / st.wallMs).toFixed(2)}`);
}
