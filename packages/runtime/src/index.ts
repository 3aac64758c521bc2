// @svc/runtime: how the api and the webhooks worker run as processes (configuration, logs, start, stop,
// Prometheus metrics).
export * from './development-secret.js';
export * from './env.js';
export * from './logger.js';
export * from './metrics.js';
export * from './service.js';
export * from './service-env.js';
