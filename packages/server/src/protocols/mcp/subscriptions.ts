import type { Watch } from './backend.js';
import { watchFor } from './resources.js';
import type { ToolSession } from './tool-kit.js';

/**
 * One session's resource subscriptions (MCP resources/subscribe). Each URI
 * watches the events that change it, through the backend (the hub's commits
 * in-process, the live WebSocket feed in `baton mcp`), and the client is told
 * with notifications/resources/updated. Updates within `coalesceMs` of each
 * other become one notification: a burst of writes means one re-read.
 */
export class ResourceSubscriptions {
  readonly #session: ToolSession;
  readonly #notify: (uri: string) => Promise<void>;
  readonly #coalesceMs: number;
  readonly #watches = new Map<string, Promise<Watch>>();
  readonly #pending = new Map<string, NodeJS.Timeout>();
  #closed = false;

  constructor(session: ToolSession, notify: (uri: string) => Promise<void>, coalesceMs = 25) {
    this.#session = session;
    this.#notify = notify;
    this.#coalesceMs = coalesceMs;
  }

  get size(): number {
    return this.#watches.size;
  }

  /** Resolves once updates to `uri` will be reported; subscribing again is a no-op. */
  async subscribe(uri: string): Promise<void> {
    if (this.#closed) return;
    const existing = this.#watches.get(uri);
    if (existing) {
      await existing;
      return;
    }
    const started = this.#start(uri);
    this.#watches.set(uri, started);
    try {
      await (await started).ready;
    } catch (error) {
      this.#watches.delete(uri);
      throw error;
    }
  }

  async #start(uri: string): Promise<Watch> {
    const spec = await watchFor(uri, this.#session);
    return this.#session.backend().watch(spec.filter, (events) => {
      if (spec.affects && !events.some(spec.affects)) return;
      this.#schedule(uri);
    });
  }

  async unsubscribe(uri: string): Promise<void> {
    const watch = this.#watches.get(uri);
    this.#watches.delete(uri);
    this.#cancel(uri);
    (await watch?.catch(() => undefined))?.close();
  }

  #schedule(uri: string): void {
    if (this.#closed || this.#pending.has(uri) || !this.#watches.has(uri)) return;
    const timer = setTimeout(() => {
      this.#pending.delete(uri);
      this.#notify(uri).catch((error: unknown) => this.#session.log?.debug({ err: error, uri }, 'resource update not delivered'));
    }, this.#coalesceMs);
    this.#pending.set(uri, timer);
  }

  #cancel(uri: string): void {
    const timer = this.#pending.get(uri);
    if (timer) clearTimeout(timer);
    this.#pending.delete(uri);
  }

  async close(): Promise<void> {
    this.#closed = true;
    const watches = [...this.#watches.values()];
    this.#watches.clear();
    for (const uri of [...this.#pending.keys()]) this.#cancel(uri);
    for (const watch of await Promise.allSettled(watches)) if (watch.status === 'fulfilled') watch.value.close();
  }
}
