import { createContext, useContext, useEffect, useState, useSyncExternalStore } from 'react';
import { useApi } from '../api/api-context.js';
import { takePreloaded } from './preload.js';
import { Timeline, type TimelineSnapshot } from './timeline.js';

/**
 * Opens the timeline of one context for as long as the calling view is
 * mounted: the one boot.ts started loading when it fits, else a new one.
 */
export function useTimelineOf(contextId: string): Timeline {
  const { api, identity } = useApi();
  const [timeline, setTimeline] = useState(() => takePreloaded(contextId, identity) ?? new Timeline(api, identity, contextId));
  useEffect(() => {
    // Another context or identity, or closed by a remount (StrictMode in development): start afresh.
    setTimeline((current) => (current.fits(contextId, identity) ? current : new Timeline(api, identity, contextId)));
  }, [api, identity, contextId]);
  useEffect(() => {
    void timeline.start();
    return () => timeline.close();
  }, [timeline]);
  return timeline;
}

export const TimelineContext = createContext<Timeline | null>(null);

export function useTimeline(): { timeline: Timeline; snapshot: TimelineSnapshot } {
  const timeline = useContext(TimelineContext);
  if (!timeline) throw new Error('useTimeline outside a context view');
  const snapshot = useSyncExternalStore(timeline.subscribe, timeline.getSnapshot);
  return { timeline, snapshot };
}
