// Prometheus plumbing the api and the worker share (docs/operations.md): a registry with the process
// metrics, the gauges of the database pool, and the optional bearer token in front of /metrics.
import { createHash, timingSafeEqual } from 'node:crypto';

import { collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import type { DataSource } from 'typeorm';

/**
 * Gauges prom-client names with `_total`, which promtool refuses on anything but a counter; each is the
 * sum of the same name without it (by `type`), which stays.
 */
const MISNAMED_DEFAULTS = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
];

/**
 * A registry of its own (several services can then run in one process, as in tests) with prom-client's
 * process and Node metrics, less the three misnamed ones.
 */
export function createMetricsRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  for (const name of MISNAMED_DEFAULTS) registry.removeSingleMetric(name);
  return registry;
}

/** What node-postgres's Pool tells about itself. */
interface PoolCounts {
  readonly totalCount: number;
  readonly idleCount: number;
  readonly waitingCount: number;
  readonly options?: { readonly max?: number };
}

/**
 * Gauges of the pool behind `dataSource` (TypeORM's PostgreSQL driver keeps node-postgres's Pool as
 * `driver.master`), read at each scrape.
 */
export function observeDatabasePool(registry: Registry, dataSource: DataSource): void {
  const pool = () => (dataSource.driver as unknown as { master?: PoolCounts }).master;
  const gauge = (name: string, help: string, read: (pool: PoolCounts) => number | undefined) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        const current = pool();
        const value = current && read(current);
        if (value === undefined) this.reset();
        else this.set(value);
      },
    });
  gauge(
    'db_pool_connections',
    'Connections the database pool holds open (idle and in use)',
    (p) => p.totalCount,
  );
  gauge('db_pool_idle_connections', 'Open connections of the database pool not in use', (p) => p.idleCount);
  gauge(
    'db_pool_waiting_requests',
    'Queries waiting for a connection of the database pool (all connections in use)',
    (p) => p.waitingCount,
  );
  gauge(
    'db_pool_max_connections',
    'The largest number of connections the database pool opens',
    (p) => p.options?.max,
  );
}

/**
 * Whether a scrape may read /metrics: always when no token is configured, else only with
 * `Authorization: Bearer <token>`, compared in constant time (SHA-256 of both, so lengths leak nothing).
 */
export function metricsScrapeAllowed(authorization: string | undefined, token: string | undefined): boolean {
  if (token === undefined) return true;
  const prefix = 'Bearer ';
  const given = authorization?.startsWith(prefix) ? authorization.slice(prefix.length) : '';
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(token)) && given !== '';
}

/** What a refused scrape is told (with 401 and `WWW-Authenticate: Bearer`). */
export const METRICS_TOKEN_REQUIRED = '/metrics needs Authorization: Bearer <METRICS_TOKEN>';
