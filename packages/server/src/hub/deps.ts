import type { Event } from '@baton/core';
import type { Store } from '../store/store.js';

/** What the hub shares with its parts (tasks, checkpoints): one store, one clock, one id source, one publisher. */
export interface HubDeps {
  readonly store: Store;
  readonly now: () => number;
  readonly newId: () => string;
  /** Hands committed events to the hub's append listeners. */
  readonly publish: (events: readonly Event[]) => void;
}
