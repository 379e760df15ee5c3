import type { Checkpoint } from '@baton/core';
import { useApi } from '../api/api-context.js';
import { artifactUrl } from '../api/rest.js';
import { useResource } from '../state/use-resource.js';
import { formatCount, formatTime } from '../ui/format.js';
import { JsonBlock } from '../ui/markdown.js';

/** The context's checkpoints (MAP trajectory), newest first, with their metadata and artifacts. */
export function CheckpointsTab({ contextId }: { contextId: string }) {
  const { api } = useApi();
  const { data, error } = useResource(() => api.listCheckpoints(contextId), contextId);
  return (
    <section className="checkpoints-tab scroll-area" aria-label="Checkpoints">
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {data && data.checkpoints.length === 0 && <p className="empty">No checkpoints in this context.</p>}
      {data?.checkpoints.map((c) => (
        <CheckpointCard key={c.id} checkpoint={c} />
      ))}
    </section>
  );
}

function CheckpointCard({ checkpoint: c }: { checkpoint: Checkpoint }) {
  const entries = Object.entries(c.metadata);
  return (
    <article className="checkpoint" aria-label={`Checkpoint: ${c.label || c.id}`}>
      <header className="activity-header">
        <strong>{c.label || c.id}</strong>
        <span className="badge">{c.agentId}</span>
        {c.sessionId && <span className="muted">session {c.sessionId}</span>}
        <span className="spacer" />
        <time className="muted" dateTime={c.timestamp}>
          {formatTime(c.timestamp)}
        </time>
      </header>
      {entries.length > 0 && (
        <dl className="metadata">
          {entries.map(([key, value]) => (
            <div key={key}>
              <dt>{key}</dt>
              <dd>{typeof value === 'object' && value !== null ? <JsonBlock value={value} /> : String(value)}</dd>
            </div>
          ))}
        </dl>
      )}
      {c.artifacts.length > 0 && (
        <ul className="artifacts" aria-label="Artifacts">
          {c.artifacts.map((a) => (
            <li key={a.name}>
              <a href={artifactUrl(c.id, a.name)} target="_blank" rel="noreferrer">
                {a.name}
              </a>{' '}
              <span className="muted">
                {a.mediaType} · {formatCount(a.size)} bytes
              </span>
            </li>
          ))}
        </ul>
      )}
    </article>
  );
}
