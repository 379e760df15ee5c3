import { createContext, useContext, useEffect, useState, useSyncExternalStore } from 'react';
import { useApi } from '../api/api-context.js';
import { Timeline, type TimelineSnapshot } from './timeline.js';

/** Opens the timeline of one context for as long as the calling view is mounted. */
export function useTimelineOf(contextId: string): Timeline {
  const { api, identity } = useApi();
  const [timeline, setTimeline] = useState(() => new Timeline(api, identity, contextId));
  useEffect(() => {
    const next = new Timeline(api, identity, contextId);
    setTimeline(next);
    void next.start();
    return () => next.close();
  }, [api, identity, contextId]);
  return timeline;
}

export const TimelineContext = createContext<Timeline | null>(null);

export function useTimeline(): { timeline: Timeline; snapshot: TimelineSnapshot } {
  const timeline = useContext(TimelineContext);
  if (!timeline) throw new Error('useTimeline outside a context view');
  const snapshot = useSyncExternalStore(timeline.subscribe, timeline.getSnapshot);
  return { timeline, snapshot };
}
