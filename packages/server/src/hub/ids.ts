import { monotonicFactory } from 'ulid';

/** ULIDs: sortable by creation time, and monotonic within one process. */
export const newId: () => string = monotonicFactory();
