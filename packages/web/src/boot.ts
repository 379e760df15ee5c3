import { type Identity, loadIdentity } from './api/identity.js';
import { RestApi } from './api/rest.js';
import { contextRoute } from './routes.js';
import { preloadTimeline } from './state/preload.js';

/**
 * Evaluated before every other module of the UI (main.tsx imports it first):
 * when the page is a context's, its timeline starts loading now rather than
 * after React, the markdown renderer and the views have been evaluated and
 * mounted.
 */
export const bootIdentity: Identity = loadIdentity();

const route = contextRoute(location.pathname);
if (route) preloadTimeline(new RestApi(() => bootIdentity), bootIdentity, route.contextId);
