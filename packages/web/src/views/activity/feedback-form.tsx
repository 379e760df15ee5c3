import { useId, useState } from 'react';
import { useApi } from '../../api/api-context.js';
import type { Timeline } from '../../state/timeline.js';
import { useAction } from '../../ui/use-action.js';

/**
 * Posts a person's feedback as a `human_feedback` activity. When it answers
 * an event, `refs` and `parentId` point at it, which is how agents reading
 * the feed over MCP find the feedback meant for them.
 */
export function FeedbackForm({ timeline, about, label, onDone }: { timeline: Timeline; about?: string; label: string; onDone?(): void }) {
  const { api } = useApi();
  const id = useId();
  const [text, setText] = useState('');
  const submit = useAction(async () => {
    const body = text.trim();
    if (!body) return;
    const event = await api.appendEvent(timeline.contextId, {
      kind: 'activity',
      activityType: 'human_feedback',
      content: [{ type: 'text', text: body }],
      ...(about ? { refs: [about], parentId: about } : {}),
    });
    timeline.upsert(event);
    setText('');
    onDone?.();
  });
  return (
    <form
      className="feedback-form"
      onSubmit={(e) => {
        e.preventDefault();
        submit.run();
      }}
    >
      <label htmlFor={id}>{label}</label>
      <textarea id={id} rows={3} value={text} onChange={(e) => setText(e.target.value)} placeholder="Write feedback for the agents…" />
      <div className="form-actions">
        {submit.error && (
          <span className="error" role="alert">
            {submit.error}
          </span>
        )}
        <button type="submit" className="button primary" disabled={submit.busy || text.trim() === ''}>
          {submit.busy ? 'Sending…' : 'Send feedback'}
        </button>
        {onDone && (
          <button type="button" className="button" onClick={onDone}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
