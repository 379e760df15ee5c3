export { BatonError } from '@baton/core';
export { BatonClient, type BatonClientOptions } from './baton-client.js';
