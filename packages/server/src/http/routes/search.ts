import { SearchQuery, SearchResult } from '@baton/core';
import type { RouteSpec } from '../route.js';

export const searchRoutes: RouteSpec[] = [
  {
    method: 'get',
    path: '/search',
    operationId: 'search',
    summary: 'Full-text search over the timeline in any script, ranked (higher score is better), each hit with a «highlighted» snippet',
    tag: 'search',
    query: SearchQuery,
    response: SearchResult,
    handler: ({ hub, caller, query }) => hub.search.search(query, caller),
  },
];
