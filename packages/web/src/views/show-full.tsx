import type { ContentCut, Timeline } from '../state/timeline.js';
import { useAction } from '../ui/use-action.js';

/**
 * Under an event's content when it was listed cut to a preview (state/timeline.ts
 * PREVIEW_CHARS): a button that loads the event whole, in place.
 */
export function ShowFull({ id, cut, timeline }: { id: string; cut: ContentCut | undefined; timeline: Timeline }) {
  const load = useAction(async () => {
    await timeline.full(id);
  });
  if (!cut) return null;
  return (
    <p className="show-full-row">
      <button type="button" className="show-full" onClick={load.run} disabled={load.busy}>
        {load.busy ? 'Loading…' : `Show full (${cut.lines.toLocaleString('en-US')} lines)`}
      </button>
      {load.error && (
        <span className="error" role="alert">
          {load.error}
        </span>
      )}
    </p>
  );
}
