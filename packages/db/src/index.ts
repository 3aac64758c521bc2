// @svc/db: persistence shared by the api and the webhooks worker.
export * from './data-source.js';
export * from './development-secret.js';
export * from './embedded-postgres.js';
export * from './entities/index.js';
export * from './queue.js';
export * from './secret-box.js';
export * from './shutdown.js';
