import type { Event } from '@baton/core';
import { formatTime } from '../../ui/format.js';
import type { Lane } from './stats.js';

const LANE = 30;
const LABEL = 150;
const WIDTH = 900;
/** More marks than this per lane are binned: a 10,000-turn lane still draws quickly. */
const MAX_MARKS = 600;

function markClass(event: Event): string {
  if (event.kind === 'turn') return event.error ? 'mark-error' : `mark-turn-${event.direction}`;
  if (event.kind === 'note') return 'mark-note';
  return event.activityType === 'blocker' ? 'mark-blocker' : 'mark-activity';
}

/** Each agent's activity over time, one lane per agent (plain SVG). */
export function Swimlanes({ lanes }: { lanes: readonly Lane[] }) {
  const times = lanes.flatMap((l) => l.events.map((e) => new Date(e.createdAt).getTime()));
  if (times.length === 0) return <p className="muted">No activity yet.</p>;
  const start = Math.min(...times);
  const end = Math.max(...times, start + 1);
  const span = WIDTH - LABEL - 16;
  const x = (iso: string) => LABEL + ((new Date(iso).getTime() - start) / (end - start)) * span;
  const height = lanes.length * LANE + 24;
  return (
    <figure className="chart swimlanes">
      <figcaption>Timeline by agent</figcaption>
      <svg viewBox={`0 0 ${WIDTH} ${height}`} width="100%" role="img" aria-label="Timeline of each agent's activity">
        {lanes.map((lane, i) => {
          const y = i * LANE;
          const step = Math.max(1, Math.ceil(lane.events.length / MAX_MARKS));
          const marks = lane.events.filter((_, j) => j % step === 0);
          return (
            <g key={lane.key}>
              <rect x={LABEL} y={y + 4} width={span} height={LANE - 8} className="lane-bg" rx={4} />
              <text x={LABEL - 8} y={y + LANE / 2 + 4} textAnchor="end" className="chart-label">
                {lane.label.length > 20 ? `${lane.label.slice(0, 19)}…` : lane.label}
              </text>
              {marks.map((e) => (
                <rect key={e.id} x={x(e.createdAt) - 2} y={y + 7} width={4} height={LANE - 14} rx={1.5} className={markClass(e)}>
                  <title>
                    {e.kind}
                    {e.kind === 'activity'
                      ? ` · ${e.activityType}`
                      : e.kind === 'turn'
                        ? ` · ${e.phase ?? ''} ${e.direction}`
                        : ` · ${e.title}`}{' '}
                    · {formatTime(e.createdAt)}
                  </title>
                </rect>
              ))}
            </g>
          );
        })}
        <text x={LABEL} y={height - 6} className="chart-axis">
          {formatTime(new Date(start).toISOString())}
        </text>
        <text x={WIDTH - 16} y={height - 6} textAnchor="end" className="chart-axis">
          {formatTime(new Date(end).toISOString())}
        </text>
      </svg>
      <p className="legend">
        <span className="swatch mark-turn-prompt" /> prompt <span className="swatch mark-turn-response" /> response{' '}
        <span className="swatch mark-activity" /> activity <span className="swatch mark-blocker" /> blocker{' '}
        <span className="swatch mark-note" /> note <span className="swatch mark-error" /> error
      </p>
    </figure>
  );
}
