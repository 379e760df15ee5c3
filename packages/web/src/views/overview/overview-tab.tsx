import type { ActivityEvent, Context, Event, NoteEvent } from '@baton/core';
import { useMemo } from 'react';
import { useApi } from '../../api/api-context.js';
import { batonOp } from '../../state/ops.js';
import { useResource } from '../../state/use-resource.js';
import { useTimeline } from '../../state/use-timeline.js';
import { actorLabel, formatCost, formatCount, formatTime } from '../../ui/format.js';
import { Markdown } from '../../ui/markdown.js';
import { isTerminalState } from '../../ui/vocabulary.js';
import { ActivityItem } from '../activity/activity-item.js';
import { isTurn } from '../conversations/turns.js';
import { TaskStatePill } from '../tasks-tab.js';
import { UsageBarChart } from './bar-chart.js';
import { swimlanes, usageByAgent, usageByPhase } from './stats.js';
import { Swimlanes } from './swimlanes.js';

function isOpenBlocker(e: Event): e is ActivityEvent {
  return e.kind === 'activity' && e.activityType === 'blocker' && !e.resolved;
}

function isPressingNote(e: Event, now: number): e is NoteEvent {
  return e.kind === 'note' && !e.consumed && e.urgency === 'blocking' && (e.expiresAt === null || new Date(e.expiresAt).getTime() > now);
}

/** What needs attention first (open blockers, blocking notes, active tasks), then usage charts and the agents' timeline. */
export function OverviewTab({ context }: { context: Context }) {
  const { api } = useApi();
  const { timeline, snapshot } = useTimeline();
  const taskChanges = useMemo(() => snapshot.events.filter((e) => batonOp(e)?.startsWith('task.')).length, [snapshot.events]);
  const { data: taskPage } = useResource(() => api.listTasks(context.id), `${context.id}:${taskChanges}`);
  const turns = useMemo(() => snapshot.events.filter(isTurn), [snapshot.events]);
  const byPhase = useMemo(() => usageByPhase(turns), [turns]);
  const byAgent = useMemo(() => usageByAgent(turns), [turns]);
  const lanes = useMemo(() => swimlanes(snapshot.events.filter((e) => batonOp(e) === null)), [snapshot.events]);
  const blockers = snapshot.events.filter(isOpenBlocker);
  const now = Date.now();
  const pressing = snapshot.events.filter((e): e is NoteEvent => isPressingNote(e, now));
  const active = (taskPage?.tasks ?? []).filter((t) => !isTerminalState(t.state));
  const total = byPhase.reduce((sum, d) => ({ tokens: sum.tokens + d.inputTokens + d.outputTokens, cost: sum.cost + d.costUsd }), {
    tokens: 0,
    cost: 0,
  });

  return (
    <section className="overview scroll-area" aria-label="Overview">
      {context.description && (
        <div className="description">
          <Markdown text={context.description} />
        </div>
      )}
      <dl className="stats">
        <div>
          <dt>Events</dt>
          <dd>{formatCount(snapshot.events.length)}</dd>
        </div>
        <div>
          <dt>Turns</dt>
          <dd>{formatCount(turns.length)}</dd>
        </div>
        <div>
          <dt>Tokens</dt>
          <dd>{formatCount(total.tokens)}</dd>
        </div>
        <div>
          <dt>Cost</dt>
          <dd>{formatCost(total.cost)}</dd>
        </div>
        <div>
          <dt>Owner</dt>
          <dd>{context.owner ? actorLabel(context.owner) : '—'}</dd>
        </div>
        <div>
          <dt>Updated</dt>
          <dd>{formatTime(context.updatedAt)}</dd>
        </div>
      </dl>
      {(blockers.length > 0 || pressing.length > 0 || active.length > 0) && (
        <section className="attention" aria-label="Needs attention">
          {blockers.length > 0 && (
            <>
              <h3>Open blockers ({blockers.length})</h3>
              {blockers.map((b) => (
                <ActivityItem key={b.id} event={b} timeline={timeline} refersTo={undefined} cut={snapshot.cut.get(b.id)} />
              ))}
            </>
          )}
          {pressing.length > 0 && (
            <>
              <h3>Blocking notes ({pressing.length})</h3>
              <ul className="plain-list">
                {pressing.map((n) => (
                  <li key={n.id}>
                    <strong>{n.title}</strong> {n.summary && <span className="muted">— {n.summary}</span>}
                  </li>
                ))}
              </ul>
            </>
          )}
          {active.length > 0 && (
            <>
              <h3>Active tasks ({active.length})</h3>
              <ul className="plain-list" aria-label="Active tasks">
                {active.map((t) => (
                  <li key={t.id}>
                    <TaskStatePill state={t.state} /> {t.title || t.id}
                  </li>
                ))}
              </ul>
            </>
          )}
        </section>
      )}
      <div className="charts">
        <UsageBarChart title="Tokens per phase" data={byPhase} measure="tokens" />
        <UsageBarChart title="Cost per phase" data={byPhase} measure="cost" />
        <UsageBarChart title="Tokens per agent" data={byAgent} measure="tokens" />
        <UsageBarChart title="Cost per agent" data={byAgent} measure="cost" />
      </div>
      <Swimlanes lanes={lanes} />
    </section>
  );
}
