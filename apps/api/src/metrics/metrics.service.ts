// Prometheus metrics of this process (docs/decisions.md, "Operations"): prom-client's default process metrics
// and the duration of every HTTP request, labelled by method, route pattern and status. Each application has
// its own registry, so several can run in one process (the tests do).
import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';

/** The route label of a request no route matched: raw URLs would make a series per probe. */
export const UNMATCHED_ROUTE = '(unmatched)';

@Injectable()
export class MetricsService implements OnModuleDestroy {
  readonly registry = new Registry();
  private readonly requestDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from receiving an HTTP request to sending the answer, by method, route pattern and status',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  /** Times every request Fastify answers, including 404s and refusals by the guard. */
  measure(fastify: FastifyInstance): void {
    fastify.addHook('onResponse', (request, reply, done) => {
      this.requestDuration.observe(
        {
          method: request.method,
          // The pattern (/api/v1/user/:orgUserId), never the URL: no ids in labels.
          route: request.routeOptions.url ?? UNMATCHED_ROUTE,
          status_code: String(reply.statusCode),
        },
        reply.elapsedTime / 1000,
      );
      done();
    });
  }

  /** The Prometheus text exposition. */
  metrics(): Promise<string> {
    return this.registry.metrics();
  }

  onModuleDestroy(): void {
    this.registry.clear();
  }
}
