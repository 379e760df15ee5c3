import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore } from 'baton';
import Database from 'better-sqlite3';

const dir = mkdtempSync(join(tmpdir(), 'raw-'));
const s = openSqliteStore({ dataDir: dir });
await s.migrate();
await s.close();
const db = new Database(join(dir, 'baton.db'));
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.pragma('cache_size = -65536');
db.prepare("insert into contexts (id,title,description,metadata,created_at,updated_at) values ('c','t','','{}',0,0)").run();
const getCtx = db.prepare('select * from contexts where id = ?');
const bump = db.prepare("update counters set value = value + 1 where name = 'events' returning value");
const ins = db.prepare('insert into events (seq,id,context_id,kind,type,actor_id,created_at,body) values (?,?,?,?,?,?,?,?)');
const upd = db.prepare('update contexts set event_count = event_count + 1, last_seq = ?, updated_at = ? where id = ?');
const body = JSON.stringify({ actor: { name: 'Claude Code', runtime: 'claude-code' }, content: [{ type: 'text', text: 'x'.repeat(120) }] });
const one = db.transaction((i: number) => {
  getCtx.get('c');
  const { value } = bump.get() as { value: number };
  ins.run(value, `id${i}`, 'c', 'activity', 'agent_action', 'claude', Date.now(), body);
  upd.run(value, Date.now(), 'c');
});
const n = 20000;
let t0 = performance.now();
for (let i = 0; i < n; i++) one(i);
console.log('single tx per event', (n / ((performance.now() - t0) / 1000)).toFixed(0), '/s');
const many = db.transaction((base: number) => {
  for (let j = 0; j < 32; j++) one(base + j);
});
t0 = performance.now();
for (let i = 0; i < n; i += 32) many(n + i);
console.log('32 per tx (nested savepoints)', (n / ((performance.now() - t0) / 1000)).toFixed(0), '/s');
