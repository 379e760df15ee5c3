import { SearchQuery, SearchResult } from '@baton/core';
import type { RouteSpec } from '../route.js';

export const searchRoutes: RouteSpec[] = [
  {
    method: 'get',
    path: '/search',
    operationId: 'search',
    summary:
      'Search the timeline in any script: full text, or with embeddings on, semantic or hybrid (`mode`); ranked (higher score is better), each hit with a «highlighted» snippet',
    tag: 'search',
    query: SearchQuery,
    response: SearchResult,
    handler: ({ hub, caller, query }) => hub.search.search(query, caller),
  },
];
