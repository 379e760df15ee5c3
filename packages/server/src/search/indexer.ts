import type { Event } from '@baton/core';
import type { SearchDocument, SearchProgress, Store } from '../store/store.js';
import { eventSearchText } from './search-text.js';
import { chunkText, searchTokens } from './tokenize.js';

/** Events read and indexed per transaction: short transactions keep appends flowing on SQLite's single writer. */
const BATCH = 500;
/** After an append, wait this long for more before indexing: one transaction per burst, not per event. */
const DEBOUNCE_MS = 100;

/** Segmenting is CPU work on the event loop: give other requests a turn every few milliseconds. */
const SLICE_MS = 8;

async function documentsYielding(events: readonly Event[]): Promise<SearchDocument[]> {
  const docs: SearchDocument[] = [];
  let sliceStart = performance.now();
  const breathe = async () => {
    if (performance.now() - sliceStart <= SLICE_MS) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    sliceStart = performance.now();
  };
  for (const event of events) {
    // A 5 MB turn is ~330 chunks: yield between chunks too, not only between events.
    const chunks: string[][] = [];
    for (const chunk of chunkText(eventSearchText(event))) {
      chunks.push(searchTokens(chunk));
      await breathe();
    }
    docs.push({ seq: event.seq, chunks });
  }
  return docs;
}

/**
 * Keeps the full-text index in step with the event log. The append path
 * knows nothing of search: the indexer reads events above its watermark (a
 * row in `counters`), segments them in JavaScript (tokenize.ts: the stores'
 * own tokenizers cannot segment Chinese or Japanese) and writes index rows
 * in its own short transactions. A search first catches up, so it sees every
 * event committed before it started (read-your-writes); in the background
 * the indexer follows appends and backfills a store that predates the index.
 */
export class SearchIndexer {
  readonly #store: Store;
  #running: Promise<SearchProgress> | null = null;
  #timer: NodeJS.Timeout | null = null;
  #stopped = false;
  /** The last background failure (the next run retries). */
  lastError: unknown = null;

  constructor(store: Store) {
    this.#store = store;
  }

  /** Indexes up to `maxEvents` events past the watermark; one run at a time per process. */
  catchUp(maxEvents = Number.POSITIVE_INFINITY): Promise<SearchProgress> {
    const previous = this.#running ?? Promise.resolve(null);
    const run = previous.catch(() => null).then(() => this.#run(maxEvents));
    this.#running = run;
    void run
      .finally(() => {
        if (this.#running === run) this.#running = null;
      })
      .catch(() => {});
    return run;
  }

  async #run(maxEvents: number): Promise<SearchProgress> {
    let progress = await this.#store.searchProgress();
    let done = 0;
    while (progress.indexedSeq < progress.headSeq && done < maxEvents && !this.#stopped) {
      const events = await this.#store.listEvents({ afterSeq: progress.indexedSeq, viewerKey: null, order: 'asc', limit: BATCH });
      const last = events.at(-1)?.seq ?? progress.headSeq;
      const upTo = events.length < BATCH ? Math.max(last, progress.headSeq) : last;
      const docs = await documentsYielding(events);
      await this.#store.write((tx) => tx.indexEvents(docs, upTo));
      done += events.length;
      progress = await this.#store.searchProgress();
    }
    return progress;
  }

  /** Starts a background catch-up soon, coalescing bursts of appends. */
  schedule(): void {
    if (this.#timer || this.#stopped) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.catchUp().then(
        (p) => {
          this.lastError = null;
          if (p.indexedSeq < p.headSeq) this.schedule();
        },
        (error: unknown) => {
          // The store may be closing; the next append or search retries.
          this.lastError = error;
        },
      );
    }, DEBOUNCE_MS);
    this.#timer.unref();
  }

  /** Stops background work and waits for a run in progress. */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    await this.#running?.catch(() => {});
  }
}
