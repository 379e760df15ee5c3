import { NewTask, Task, TaskPatch, TaskQuery } from '@baton/core';
import { z } from 'zod';
import { type RouteSpec, withStatus } from '../route.js';

const TaskList = z.object({ tasks: z.array(Task), nextCursor: z.string().nullable() });

export const taskRoutes: RouteSpec[] = [
  {
    method: 'post',
    path: '/contexts/:id/tasks',
    operationId: 'createTask',
    summary: 'Create a task in a context',
    tag: 'tasks',
    body: NewTask,
    response: Task,
    status: 201,
    handler: async ({ hub, caller, params, body }) => withStatus(201, await hub.createTask(params.id as string, body, caller)),
  },
  {
    method: 'get',
    path: '/contexts/:id/tasks',
    operationId: 'listTasks',
    summary: 'List a context’s tasks, oldest first',
    tag: 'tasks',
    query: TaskQuery,
    response: TaskList,
    handler: ({ hub, caller, params, query }) => hub.listTasks(params.id as string, query, caller),
  },
  {
    method: 'get',
    path: '/tasks/:id',
    operationId: 'getTask',
    summary: 'Get a task',
    tag: 'tasks',
    response: Task,
    handler: ({ hub, caller, params }) => hub.getTask(params.id as string, caller),
  },
  {
    method: 'patch',
    path: '/tasks/:id',
    operationId: 'updateTask',
    summary: 'Move a task through its states, rename it or add artifacts',
    tag: 'tasks',
    body: TaskPatch,
    response: Task,
    handler: ({ hub, caller, params, body }) => hub.updateTask(params.id as string, body, caller),
  },
];
