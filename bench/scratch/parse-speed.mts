import { NewEvent } from '@baton/core';
import { activityEvent, seeded, timelineEvent } from '../src/timeline/events.js';

const r = seeded(1);
const xs = Array.from({ length: 100000 }, () => timelineEvent(r, ['t1']));
let t0 = performance.now();
for (const x of xs) NewEvent.parse(x);
console.log('timeline parse µs/event', (((performance.now() - t0) * 1000) / xs.length).toFixed(2));
const ys = Array.from({ length: 100000 }, () => activityEvent(r, ['t1']));
t0 = performance.now();
for (const x of ys) NewEvent.parse(x);
console.log('activity parse µs/event', (((performance.now() - t0) * 1000) / ys.length).toFixed(2));
console.log('avg json', xs.reduce((a, x) => a + JSON.stringify(x).length, 0) / xs.length);
