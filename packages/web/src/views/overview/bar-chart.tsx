import { formatCost, formatCount } from '../../ui/format.js';
import type { UsageTotals } from './stats.js';

const ROW = 28;
const LABEL = 150;
const WIDTH = 560;

/**
 * Horizontal bars in plain SVG: tokens (input and output stacked) or cost
 * per group, with the figures written out so the chart reads without hover.
 */
export function UsageBarChart({ title, data, measure }: { title: string; data: readonly UsageTotals[]; measure: 'tokens' | 'cost' }) {
  const value = (d: UsageTotals) => (measure === 'tokens' ? d.inputTokens + d.outputTokens : d.costUsd);
  const max = Math.max(...data.map(value), measure === 'tokens' ? 1 : 0.0001);
  const barSpace = WIDTH - LABEL - 110;
  const height = data.length * ROW + 8;
  return (
    <figure className="chart">
      <figcaption>{title}</figcaption>
      {data.length === 0 ? (
        <p className="muted">No turns yet.</p>
      ) : (
        <svg viewBox={`0 0 ${WIDTH} ${height}`} width="100%" role="img" aria-label={title}>
          {data.map((d, i) => {
            const y = i * ROW + 4;
            const total = value(d);
            const inW = measure === 'tokens' ? (d.inputTokens / max) * barSpace : (total / max) * barSpace;
            const outW = measure === 'tokens' ? (d.outputTokens / max) * barSpace : 0;
            const text = measure === 'tokens' ? `${formatCount(total)}` : formatCost(d.costUsd);
            return (
              <g key={d.key}>
                <title>
                  {d.label}: {formatCount(d.inputTokens)} in, {formatCount(d.outputTokens)} out, {formatCost(d.costUsd)} over {d.turns}{' '}
                  turns
                  {d.unknown > 0 ? ` (${d.unknown} without usage)` : ''}
                </title>
                <text x={LABEL - 8} y={y + 15} textAnchor="end" className="chart-label">
                  {d.label.length > 20 ? `${d.label.slice(0, 19)}…` : d.label}
                </text>
                <rect
                  x={LABEL}
                  y={y}
                  width={Math.max(inW, 0)}
                  height={ROW - 8}
                  rx={3}
                  className={measure === 'tokens' ? 'bar-in' : 'bar-cost'}
                />
                {outW > 0 && <rect x={LABEL + inW} y={y} width={outW} height={ROW - 8} rx={3} className="bar-out" />}
                <text x={LABEL + inW + outW + 6} y={y + 15} className="chart-value">
                  {text}
                  {d.unknown > 0 ? ' *' : ''}
                </text>
              </g>
            );
          })}
        </svg>
      )}
      {measure === 'tokens' && data.length > 0 && (
        <p className="legend">
          <span className="swatch bar-in" /> input <span className="swatch bar-out" /> output
          {data.some((d) => d.unknown > 0) && <span className="muted"> · * some turns report no usage</span>}
        </p>
      )}
    </figure>
  );
}
