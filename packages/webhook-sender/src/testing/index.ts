// @svc/webhook-sender/testing: a real loopback receiver for the api's and the worker's tests.
export * from './receiver.js';
