import type { Task, TaskState } from '@baton/core';
import { type CSSProperties, useMemo } from 'react';
import { useApi } from '../api/api-context.js';
import { batonOp } from '../state/ops.js';
import { useResource } from '../state/use-resource.js';
import { useTimeline } from '../state/use-timeline.js';
import { formatRelative, titleCase } from '../ui/format.js';
import { Markdown } from '../ui/markdown.js';
import { TASK_STATES, TERMINAL_TASK_STATES } from '../ui/vocabulary.js';

/** Active states first, then the terminal ones. */
const ORDER: readonly TaskState[] = [
  ...TASK_STATES.filter((s) => !TERMINAL_TASK_STATES.has(s)),
  ...TASK_STATES.filter((s) => TERMINAL_TASK_STATES.has(s)),
];

/** The context's tasks by state; reloaded whenever the timeline records a task change (hub `task.*` events). */
export function TasksTab({ contextId }: { contextId: string }) {
  const { api } = useApi();
  const { snapshot } = useTimeline();
  const taskChanges = useMemo(() => snapshot.events.filter((e) => batonOp(e)?.startsWith('task.')).length, [snapshot.events]);
  const { data, error } = useResource(() => api.listTasks(contextId), `${contextId}:${taskChanges}`);
  const tasks = data?.tasks ?? [];
  return (
    <section className="tasks-tab scroll-area" aria-label="Tasks">
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {data && tasks.length === 0 && <p className="empty">No tasks in this context.</p>}
      {ORDER.map((state) => {
        const group = tasks.filter((t) => t.state === state);
        if (group.length === 0) return null;
        return (
          <section key={state} className="task-group" aria-label={`${titleCase(state)} tasks`}>
            <h3>
              <TaskStatePill state={state} /> <span className="muted">{group.length}</span>
            </h3>
            {group.map((t) => (
              <TaskCard key={t.id} task={t} all={tasks} />
            ))}
          </section>
        );
      })}
    </section>
  );
}

/** Blue while work goes on, amber while it waits for someone, green when done, red when it went wrong. */
const STATE_HUES: Record<TaskState, number> = {
  submitted: 220,
  working: 210,
  'input-required': 38,
  'auth-required': 38,
  completed: 145,
  failed: 0,
  canceled: 230,
  rejected: 0,
};

export function TaskStatePill({ state }: { state: TaskState }) {
  return (
    <span className={`pill state state-${state}`} style={{ '--hue': STATE_HUES[state] } as CSSProperties}>
      {titleCase(state)}
    </span>
  );
}

function TaskCard({ task, all }: { task: Task; all: readonly Task[] }) {
  const parent = task.parentTaskId ? all.find((t) => t.id === task.parentTaskId) : undefined;
  return (
    <article className="task" aria-label={`Task: ${task.title}`}>
      <header className="activity-header">
        <strong>{task.title || task.id}</strong>
        <TaskStatePill state={task.state} />
        <span className="spacer" />
        <span className="muted">updated {formatRelative(task.updatedAt)}</span>
      </header>
      {task.description && <Markdown text={task.description} />}
      <p className="muted small">
        {task.id}
        {task.parentTaskId && <> · delegated from {parent ? parent.title || parent.id : task.parentTaskId}</>}
        {task.requiredCapabilities.length > 0 && <> · needs {task.requiredCapabilities.join(', ')}</>}
        {task.artifacts.length > 0 && <> · {task.artifacts.length} artifacts</>}
      </p>
    </article>
  );
}
