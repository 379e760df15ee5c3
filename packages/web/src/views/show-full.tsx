import { useState } from 'react';
import type { ContentCut, Timeline } from '../state/timeline.js';

/**
 * Under an event's content when it was listed cut to a preview (state/timeline.ts
 * PREVIEW_CHARS): a button that loads the event whole, in place.
 */
export function ShowFull({ id, cut, timeline }: { id: string; cut: ContentCut | undefined; timeline: Timeline }) {
  const [state, setState] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });
  if (!cut) return null;
  const load = () => {
    setState({ busy: true, error: null });
    timeline.full(id).then(
      () => setState({ busy: false, error: null }),
      (error: Error) => setState({ busy: false, error: error.message }),
    );
  };
  return (
    <p className="show-full-row">
      <button type="button" className="show-full" onClick={load} disabled={state.busy}>
        {state.busy ? 'Loading…' : `Show full (${cut.lines.toLocaleString('en-US')} lines)`}
      </button>
      {state.error && (
        <span className="error" role="alert">
          {state.error}
        </span>
      )}
    </p>
  );
}
