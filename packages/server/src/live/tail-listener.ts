import type { AppendListener } from '../hub/hub.js';
import type { EventTail } from './event-tail.js';

/**
 * Like `hub.onAppend`, but fed by the instance's event tail, so the listener
 * also hears appends made on other instances sharing PostgreSQL. Events come
 * in seq order; a listener slower than the tail's ring skips what fell out
 * of it (these listeners want "something changed", not a complete log).
 */
export function onTailAppend(tail: EventTail, listener: AppendListener): () => void {
  let cursor = tail.head;
  return tail.watch({
    wake() {
      const events = tail.after(Math.max(cursor, tail.floor));
      cursor = tail.head;
      if (events.length > 0) listener(events);
    },
  });
}
