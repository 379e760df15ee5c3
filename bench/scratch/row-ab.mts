import { eventToRow } from '../../packages/server/src/store/rows.js';
import { ACTORS, activityEvent, benchId, prepare, seeded } from '../src/timeline/events.js';
const COLUMN_FIELDS = new Set(['id','contextId','kind','activityType','noteType','direction','phase','round','stepId','taskId','parentId']);
const DEFAULTS: Record<string, unknown> = { source: 'local', visibility: 'shared', role: 'agent' };
function isEmpty(value: unknown): boolean { if (value === null || value === undefined) return true; if (Array.isArray(value)) return value.length === 0; if (typeof value === 'object') return Object.keys(value as object).length === 0; return false; }
function compactActor(actor: any) { const out: Record<string, unknown> = {}; if (actor.name !== null) out.name = actor.name; if (actor.runtime !== null) out.runtime = actor.runtime; if (actor.role !== 'agent') out.role = actor.role; return out; }
function oldRow(event: any, seq: number, createdAt: number) { return { seq, id: event.id, context_id: event.contextId, kind: event.kind, type: event.kind === 'activity' ? event.activityType : event.kind === 'note' ? event.noteType : null, direction: null, phase: null, round: null, step_id: null, actor_id: event.actor.id, task_id: event.taskId, parent_id: event.parentId, private_to: null, created_at: createdAt, body: oldBody(event), projection: null }; }
function oldBody(event: any) { const body: Record<string, unknown> = {}; for (const [key, raw] of Object.entries(event)) { if (COLUMN_FIELDS.has(key)) continue; const value = key === 'actor' ? compactActor(raw) : raw; if (isEmpty(value) || DEFAULTS[key] === value) continue; body[key] = value; } return JSON.stringify(body); }
const rand = seeded(3);
const evs = Array.from({ length: 100000 }, () => prepare({ actor: ACTORS[1], ...activityEvent(rand, ['t1']) }, 'ctx', benchId()));
const cpu = (fn: () => void) => { const c = process.cpuUsage(); fn(); const d = process.cpuUsage(c); return ((d.user + d.system) / evs.length).toFixed(3); };
for (let r = 0; r < 6; r++) {
  const a = cpu(() => { for (const e of evs) oldRow(e, 1, 2); });
  const b = cpu(() => { for (const e of evs) eventToRow(e, 1, 2); });
  const j = cpu(() => { for (const e of evs) JSON.stringify(e); });
  console.log('old body µs', a, ' new eventToRow µs', b, ' (plain JSON.stringify of the event', j, ')');
}
