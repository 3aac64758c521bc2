// @svc/runtime/testing: helpers for the services' tests; never imported by the services themselves.
export * from './exposition.js';
