// The api as a library (`@svc/api`): what a process that embeds or tests the api needs to build and run
// it. Importing it starts nothing; `dist/main.js` is the server as operators run it.
export { createApp } from './app.js';
export type { AppDependencies } from './app.module.js';
export { createLogger } from './common/logger.js';
export { ConfigError, loadConfig, type AppConfig } from './config/config.js';
export { OperatorPriceVenue, type Venue, type VenueFill, type VenueOrder } from './orders/venue.js';
