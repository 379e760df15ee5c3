import type { Context } from '@baton/core';
import { useEffect, useState } from 'react';
import { Link } from '../router.js';
import { TimelineContext, useTimelineOf } from '../state/use-timeline.js';
import { ActivityTab } from './activity/activity-tab.js';
import { CheckpointsTab } from './checkpoints-tab.js';
import { ConversationsTab } from './conversations/conversations-tab.js';
import { NotesTab } from './notes-tab.js';
import { OverviewTab } from './overview/overview-tab.js';
import { TasksTab } from './tasks-tab.js';

export const TABS = ['overview', 'activity', 'conversations', 'notes', 'tasks', 'checkpoints'] as const;
export type Tab = (typeof TABS)[number];

export function isTab(value: string): value is Tab {
  return (TABS as readonly string[]).includes(value);
}

const LABELS: Record<Tab, string> = {
  overview: 'Overview',
  activity: 'Activity',
  conversations: 'Conversations',
  notes: 'Notes',
  tasks: 'Tasks',
  checkpoints: 'Checkpoints',
};

/** One context: its header and six tabs, each at its own URL (`/contexts/:id/:tab`). */
export function ContextView({ contextId, tab }: { contextId: string; tab: Tab }) {
  const timeline = useTimelineOf(contextId);
  const [context, setContext] = useState<Context | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    timeline.context().then(setContext, (err: Error) => setError(err.message));
  }, [timeline]);

  useEffect(() => {
    document.title = context ? `${context.title || context.id} · ${LABELS[tab]} · baton` : 'baton';
  }, [context, tab]);

  if (error) {
    return (
      <p className="error" role="alert">
        {error} <Link to="/">Back to the contexts</Link>
      </p>
    );
  }
  if (!context) return <p className="muted">Loading…</p>;
  const base = `/contexts/${encodeURIComponent(contextId)}`;
  return (
    <TimelineContext.Provider value={timeline}>
      <div className="context-view">
        <div className="context-head">
          <nav className="breadcrumbs" aria-label="Breadcrumbs">
            <Link to="/">Contexts</Link> <span aria-hidden="true">/</span>
          </nav>
          <h1>{context.title || context.id}</h1>
        </div>
        <nav className="tabs" aria-label="Context sections">
          {TABS.map((t) => (
            <Link key={t} to={`${base}/${t}`} className="tab" aria-current={t === tab ? 'page' : undefined}>
              {LABELS[t]}
            </Link>
          ))}
        </nav>
        <div className="tab-panel">
          {tab === 'overview' && <OverviewTab context={context} />}
          {tab === 'activity' && <ActivityTab />}
          {tab === 'conversations' && <ConversationsTab context={context} />}
          {tab === 'notes' && <NotesTab />}
          {tab === 'tasks' && <TasksTab contextId={contextId} />}
          {tab === 'checkpoints' && <CheckpointsTab contextId={contextId} />}
        </div>
      </div>
    </TimelineContext.Provider>
  );
}
