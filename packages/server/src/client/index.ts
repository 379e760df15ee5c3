export { BatonError } from '@baton/core';
export { BatonClient, type BatonClientOptions, type SearchOptions, type SharedContextResult } from './baton-client.js';
export { LiveClient, type LiveClientOptions, type LiveSubscription } from './live-client.js';
