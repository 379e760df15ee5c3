import type { Identity } from '../api/identity.js';
import type { RestApi } from '../api/rest.js';
import { Timeline } from './timeline.js';

let preloaded: Timeline | null = null;

/**
 * Starts loading a context's timeline before React renders (boot.ts, the
 * first module main.tsx evaluates, calls this), so its first page is on the way while the rest of the
 * UI's code is evaluated and mounted. The view takes it over with `takePreloaded`.
 */
export function preloadTimeline(api: RestApi, identity: Identity, contextId: string): void {
  preloaded = new Timeline(api, identity, contextId);
  void preloaded.start();
}

/**
 * The preloaded timeline, if it is the one asked for (the same one however
 * often it is asked: React in development renders twice); else it is closed.
 */
export function takePreloaded(contextId: string, identity: Identity): Timeline | null {
  const timeline = preloaded;
  if (timeline?.fits(contextId, identity)) return timeline;
  preloaded = null;
  timeline?.close();
  return null;
}
