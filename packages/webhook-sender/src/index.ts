// @svc/webhook-sender: outgoing webhook requests, one module for the api and the worker.
export * from './addresses.js';
export * from './challenge.js';
export * from './policy.js';
export * from './receiver-url.js';
export * from './retry-after.js';
export * from './sender.js';
