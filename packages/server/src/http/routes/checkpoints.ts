import { Checkpoint, NewCheckpoint } from '@baton/core';
import { z } from 'zod';
import { type RouteSpec, withStatus } from '../route.js';

export const checkpointRoutes: RouteSpec[] = [
  {
    method: 'post',
    path: '/checkpoints',
    operationId: 'createCheckpoint',
    summary: 'Record a checkpoint of an agent’s work, with named artifacts',
    tag: 'checkpoints',
    body: NewCheckpoint,
    response: Checkpoint,
    status: 201,
    handler: async ({ hub, caller, body }) => withStatus(201, await hub.createCheckpoint(body, caller)),
  },
  {
    method: 'get',
    path: '/contexts/:id/checkpoints',
    operationId: 'listCheckpoints',
    summary: 'List a context’s checkpoints, newest first',
    tag: 'checkpoints',
    response: z.object({ checkpoints: z.array(Checkpoint) }),
    handler: async ({ hub, caller, params }) => ({ checkpoints: await hub.listCheckpoints(params.id as string, caller) }),
  },
  {
    method: 'get',
    path: '/checkpoints/:id',
    operationId: 'getCheckpoint',
    summary: 'Get a checkpoint and the list of its artifacts',
    tag: 'checkpoints',
    response: Checkpoint,
    handler: ({ hub, caller, params }) => hub.getCheckpoint(params.id as string, caller),
  },
  {
    method: 'get',
    path: '/checkpoints/:id/artifacts/:name',
    operationId: 'readCheckpointArtifact',
    summary: 'Download one artifact of a checkpoint',
    tag: 'checkpoints',
    response: z.string(),
    responseMediaType: '*/*',
    handler: async ({ hub, caller, params }) => {
      const artifact = await hub.readCheckpointArtifact(params.id as string, params.name as string, caller);
      return new Response(artifact.content, { headers: { 'content-type': artifact.mediaType } });
    },
  },
];
