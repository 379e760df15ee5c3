import type { Event } from '@baton/core';

/** The hub's own bookkeeping op of an event (`metadata.baton.op`: task.created, task.state, blocker.resolved…), if any. */
export function batonOp(event: Event): string | null {
  const baton = event.metadata.baton;
  if (typeof baton !== 'object' || baton === null || Array.isArray(baton)) return null;
  const op = (baton as { op?: unknown }).op;
  return typeof op === 'string' ? op : null;
}
