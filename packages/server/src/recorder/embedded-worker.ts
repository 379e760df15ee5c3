import { parentPort, workerData } from 'node:worker_threads';
import { type Actor, BatonError } from '@baton/core';
import { HubSink } from './hub-sink.js';
import type { WorkerReply, WorkerRequest } from './worker-sink.js';

/**
 * The worker thread behind `createRecorder({ dataDir })`: it opens the store
 * and runs the hub, so SQLite commits and search indexing never run on the
 * pipeline's own thread. It answers the requests of `WorkerSink`, one at a
 * time per kind, in the order they arrive.
 */
const { dataDir, databaseUrl, actor } = workerData as { dataDir: string; databaseUrl: string | undefined; actor: Actor };
const sink = HubSink.open({ dataDir, databaseUrl }, actor);
const port = parentPort;
if (!port) throw new Error('embedded-worker runs only as a worker thread');

port.on('message', (request: WorkerRequest) => {
  void answer(request).then((reply) => port.postMessage(reply));
});

async function answer(request: WorkerRequest): Promise<WorkerReply> {
  try {
    switch (request.op) {
      case 'append':
        await sink.append(request.contextId, request.batch);
        return { id: request.id, ok: true, value: null };
      case 'ensureContext':
        await sink.ensureContext(request.contextId, request.init);
        return { id: request.id, ok: true, value: null };
      case 'listEvents':
        return { id: request.id, ok: true, value: await sink.listEvents(request.contextId, request.query) };
      case 'getEvent':
        return { id: request.id, ok: true, value: await sink.getEvent(request.eventId) };
      case 'close':
        await sink.close();
        return { id: request.id, ok: true, value: null };
    }
  } catch (error) {
    if (error instanceof BatonError)
      return { id: request.id, ok: false, error: { code: error.code, message: error.message, details: error.details } };
    return { id: request.id, ok: false, error: { code: 'internal', message: error instanceof Error ? error.message : String(error) } };
  }
}
