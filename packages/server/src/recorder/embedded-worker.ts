import { parentPort, workerData } from 'node:worker_threads';
import { type Actor, BatonError, type NewEventInput } from '@baton/core';
import { HubSink } from './hub-sink.js';
import type { TurnBatch } from './sink.js';
import type { WorkerBatch, WorkerReply, WorkerRequest } from './worker-sink.js';

/**
 * The worker thread behind `createRecorder({ dataDir })`: it opens the store
 * and runs the hub, so SQLite commits and search indexing never run on the
 * pipeline's own thread. It answers `WorkerSink`'s requests as they come (the
 * recorder's writer sends one append at a time); `close` waits for the rest.
 */
const { dataDir, databaseUrl, actor } = workerData as { dataDir: string; databaseUrl: string | undefined; actor: Actor };
const sink = HubSink.open({ dataDir, databaseUrl }, actor);
const port = parentPort;
if (!port) throw new Error('embedded-worker runs only as a worker thread');
const inFlight = new Set<Promise<unknown>>();

port.on('message', (request: WorkerRequest) => {
  const answered = answer(request).then((reply) => {
    try {
      port.postMessage(reply);
    } catch (error) {
      // A value that cannot be cloned: the request fails rather than the worker.
      port.postMessage(failure(request.id, error));
    }
  });
  inFlight.add(answered);
  void answered.finally(() => inFlight.delete(answered));
});

async function answer(request: WorkerRequest): Promise<WorkerReply> {
  try {
    switch (request.op) {
      case 'append':
        await sink.append(request.contextId, toTurnBatch(request.batch));
        return { id: request.id, ok: true, value: null };
      case 'ensureContext':
        await sink.ensureContext(request.contextId, request.init);
        return { id: request.id, ok: true, value: null };
      case 'listEvents':
        return { id: request.id, ok: true, value: await sink.listEvents(request.contextId, request.query) };
      case 'getEvent':
        return { id: request.id, ok: true, value: await sink.getEvent(request.eventId) };
      case 'close':
        await Promise.allSettled([...inFlight]);
        await sink.close();
        return { id: request.id, ok: true, value: null };
    }
  } catch (error) {
    return failure(request.id, error);
  }
}

function toTurnBatch(batch: WorkerBatch): TurnBatch {
  return 'turns' in batch ? batch : { turns: JSON.parse(new TextDecoder().decode(batch.array)) as NewEventInput[] };
}

function failure(id: number, error: unknown): WorkerReply {
  if (error instanceof BatonError) return { id, ok: false, error: { code: error.code, message: error.message, details: error.details } };
  return { id, ok: false, error: { code: 'internal', message: error instanceof Error ? error.message : String(error) } };
}
