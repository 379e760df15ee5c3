import { Hub, localCaller } from 'baton';
import Database from 'better-sqlite3';
import { activityEvent, seeded } from '../src/timeline/events.js';
import { freshStore, scratchDir } from '../src/timeline/sqlite-files.js';

const s = scratchDir('peek');
const store = await freshStore(s.dir);
const hub = new Hub(store);
const caller = localCaller({ id: 'bench', name: null, runtime: null, role: 'agent' });
const c = await hub.createContext({ title: 'x' }, caller);
const t = await hub.createTask(c.id, { title: 't' }, caller);
const rand = seeded(1);
await hub.appendEvents(
  c.id,
  Array.from({ length: 1000 }, () => activityEvent(rand, [t.id])),
  caller,
);
const db = new Database(s.file);
console.log(
  db
    .prepare(
      "select avg(length(body)) b, avg(length(id)) i, avg(length(context_id)) c, avg(length(actor_id)) a, avg(length(coalesce(task_id,''))) t from events",
    )
    .get(),
);
console.log(db.prepare('select body from events limit 1').get());
await store.close();
s.remove();
