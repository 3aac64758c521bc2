// @svc/db: persistence shared by the api and the webhooks worker. No side effects at import: the
// embedded PostgreSQL is behind @svc/db/dev.
export * from './data-source.js';
export * from './entities/index.js';
export * from './event-log.js';
export * from './idempotency-keys.js';
export * from './price-ticks.js';
export * from './queue.js';
export * from './redeliveries.js';
export * from './secret-box.js';
export * from './sql.js';
