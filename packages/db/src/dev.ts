// @svc/db/dev: what only development and tests need, kept off the main entry so that importing
// `@svc/db` in a production image loads no embedded PostgreSQL and touches no process hooks.
export * from './embedded-postgres.js';
