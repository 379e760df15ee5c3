export { BatonError } from '@baton/core';
export { BatonClient, type BatonClientOptions } from './baton-client.js';
export { LiveClient, type LiveClientOptions, type LiveSubscription } from './live-client.js';
