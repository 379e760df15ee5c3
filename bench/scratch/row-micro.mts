import { eventToRow } from '../../packages/server/src/store/rows.js';
import { ACTORS, activityEvent, benchId, prepare, seeded } from '../src/timeline/events.js';
const rand = seeded(3);
const evs = Array.from({ length: 100000 }, () => prepare({ actor: ACTORS[1], ...activityEvent(rand, ['t1']) }, 'ctx', benchId()));
for (let r = 0; r < 5; r++) { const t0 = performance.now(); let x = 0; for (const e of evs) x += eventToRow(e, 1, 2).body.length; console.log('eventToRow µs', ((performance.now() - t0) * 1000 / evs.length).toFixed(3), x); }
