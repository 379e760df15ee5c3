import { BatonError, type Checkpoint, NewCheckpoint, parseWith } from '@baton/core';
import type { StoredArtifact } from '../store/store.js';
import { authorize, type Caller } from './caller.js';
import type { HubDeps } from './deps.js';

/** Checkpoint operations behind `hub.createCheckpoint` and friends: agent state saved with its artifacts. */
export class HubCheckpoints {
  readonly #deps: Pick<HubDeps, 'store' | 'now' | 'newId'>;

  constructor(deps: Pick<HubDeps, 'store' | 'now' | 'newId'>) {
    this.#deps = deps;
  }

  async create(input: unknown, caller: Caller): Promise<Checkpoint> {
    const data = parseWith(NewCheckpoint, input, 'checkpoint');
    authorize(caller, 'write', data.contextId);
    const at = new Date(this.#deps.now()).toISOString();
    const artifacts: StoredArtifact[] = data.artifacts.map((a) => {
      const content = a.encoding === 'base64' ? Buffer.from(a.content, 'base64') : Buffer.from(a.content, 'utf8');
      return { name: a.name, mediaType: a.mediaType, size: content.byteLength, content };
    });
    const names = new Set<string>();
    for (const a of artifacts) {
      if (names.has(a.name))
        throw BatonError.invalid([{ path: 'artifacts', message: `artifact name '${a.name}' is used twice` }], 'checkpoint');
      names.add(a.name);
    }
    const checkpoint: Checkpoint = {
      id: data.id ?? this.#deps.newId(),
      agentId: data.agentId,
      sessionId: data.sessionId,
      label: data.label,
      timestamp: data.timestamp ?? at,
      metadata: data.metadata,
      contextId: data.contextId,
      taskId: data.taskId,
      artifacts: artifacts.map(({ name, mediaType, size }) => ({ name, mediaType, size })).sort((a, b) => a.name.localeCompare(b.name)),
      createdAt: at,
    };
    await this.#deps.store.write(async (tx) => {
      if (checkpoint.contextId && !(await tx.getContext(checkpoint.contextId))) throw BatonError.notFound('context', checkpoint.contextId);
      await tx.insertCheckpoint(checkpoint, artifacts);
    });
    return checkpoint;
  }

  async get(id: string, caller: Caller): Promise<Checkpoint> {
    const checkpoint = await this.#deps.store.getCheckpoint(id);
    if (!checkpoint) throw BatonError.notFound('checkpoint', id);
    authorize(caller, 'read', checkpoint.contextId);
    return checkpoint;
  }

  async list(contextId: string, caller: Caller, limit = 100): Promise<Checkpoint[]> {
    authorize(caller, 'read', contextId);
    if (!(await this.#deps.store.getContext(contextId))) throw BatonError.notFound('context', contextId);
    return this.#deps.store.listCheckpoints({ contextId, limit });
  }

  async readArtifact(id: string, name: string, caller: Caller): Promise<StoredArtifact> {
    await this.get(id, caller);
    const artifact = await this.#deps.store.readCheckpointArtifact(id, name);
    if (!artifact) throw BatonError.notFound(`artifact of checkpoint '${id}'`, name);
    return artifact;
  }
}
