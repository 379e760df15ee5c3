import { NewEvent } from '@baton/core';
import { prepareEvents } from '../../packages/server/src/hub/prepare-event.js';
import { newId } from '../../packages/server/src/hub/ids.js';
import { localCaller } from '../../packages/server/src/index.js';
import { activityEvent, seeded } from '../src/timeline/events.js';
const caller = localCaller({ id: 'b', name: 'b', runtime: 'b', role: 'agent' });
const rand = seeded(3);
const inputs = Array.from({ length: 100000 }, () => activityEvent(rand, []));
const cpu = (fn: () => void) => { const c = process.cpuUsage(); fn(); const d = process.cpuUsage(c); return ((d.user + d.system) / inputs.length).toFixed(3); };
for (let r = 0; r < 5; r++) {
  const a = cpu(() => { for (const x of inputs) NewEvent.safeParse(x); });
  const b = cpu(() => { for (let i = 0; i < inputs.length; i += 1000) prepareEvents(inputs.slice(i, i + 1000), { contextId: 'c', caller, now: Date.now(), newId }, 'events'); });
  const c = cpu(() => { for (const x of inputs) newId(); });
  console.log('safeParse', a, ' prepareEvents', b, ' newId', c);
}
function variant(inputs: readonly unknown[]) {
  const out = [];
  for (const input of inputs) {
    const result = NewEvent.safeParse(input);
    if (!result.success) throw new Error();
    const data = result.data as Record<string, unknown>;
    const id = data.id as string | undefined;
    const actor = data.actor;
    data.id = id ?? newId(); data.contextId = 'c'; data.actor = actor ?? caller.actor;
    out.push({ event: data, writerId: id !== undefined, relativeExpiry: false });
  }
  return out;
}
function restOnly(inputs: readonly unknown[]) {
  const out = [];
  for (const input of inputs) {
    const result = NewEvent.safeParse(input);
    if (!result.success) throw new Error();
    const { ttlSeconds, contextId, actor, id, ...rest } = result.data as any;
    out.push({ ...rest, id: id ?? newId(), contextId: 'c', actor: actor ?? caller.actor });
  }
  return out;
}
for (let r = 0; r < 4; r++) {
  const v = cpu(() => { for (let i = 0; i < inputs.length; i += 1000) variant(inputs.slice(i, i + 1000)); });
  const w = cpu(() => { for (let i = 0; i < inputs.length; i += 1000) restOnly(inputs.slice(i, i + 1000)); });
  console.log('in-place variant', v, ' rest/spread', w);
}
