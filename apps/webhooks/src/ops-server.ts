// The worker's HTTP port for operators (docs/operations.md): /healthz (the process is up), /readyz (it can
// work: the database answers and pg-boss runs) and /metrics (Prometheus, behind METRICS_TOKEN when set).
// Nothing else is served; it carries no organisation data. Plain node:http: three fixed GET routes.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { errorEnvelope, successEnvelope } from '@svc/protocol';
import { METRICS_TOKEN_REQUIRED, metricsScrapeAllowed, StartupError } from '@svc/runtime';
import type { Registry } from 'prom-client';

export interface OpsServerOptions {
  readonly host: string;
  readonly port: number;
  readonly metricsToken: string | undefined;
  readonly registry: Registry;
  /** Undefined when the worker can work, else why not (one sentence for the 503). */
  readonly notReady: () => Promise<string | undefined>;
}

export interface OpsServer {
  /** http://host:port, the port as bound (PORT 0 picks one). */
  readonly url: string;
  close(): Promise<void>;
}

type Route = (request: IncomingMessage, response: ServerResponse) => void | Promise<void>;

export async function startOpsServer(options: OpsServerOptions): Promise<OpsServer> {
  const routes: Record<string, Route> = {
    '/healthz': (_, response) => json(response, 200, successEnvelope({ status: 'ok' })),
    '/readyz': async (_, response) => {
      const reason = await options.notReady();
      if (reason === undefined) json(response, 200, successEnvelope({ status: 'ready' }));
      else json(response, 503, errorEnvelope(503, `not ready: ${reason}`), { 'retry-after': '5' });
    },
    '/metrics': async (request, response) => {
      if (!metricsScrapeAllowed(request.headers.authorization, options.metricsToken)) {
        json(response, 401, errorEnvelope(401, METRICS_TOKEN_REQUIRED), { 'www-authenticate': 'Bearer' });
        return;
      }
      const text = await options.registry.metrics();
      response.writeHead(200, { 'content-type': options.registry.contentType });
      response.end(text);
    },
  };
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    const route = routes[path.replace(/\/$/, '') || '/'];
    if (!route) {
      json(
        response,
        404,
        errorEnvelope(404, `no route ${path}: this port serves /healthz, /readyz and /metrics`),
      );
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      json(response, 405, errorEnvelope(405, `${path} answers GET`), { allow: 'GET, HEAD' });
      return;
    }
    Promise.resolve()
      .then(() => route(request, response))
      .catch((error: unknown) => {
        if (!response.headersSent) json(response, 500, errorEnvelope(500, 'the worker could not answer'));
        else response.destroy(error as Error);
      });
  });
  // A scraper or probe keeps its connection open between requests; closing must not wait for it.
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new StartupError(
              `the webhooks worker cannot listen on ${options.host}:${options.port}: the port is in use (set WORKER_PORT to a free one)`,
            )
          : error,
      ),
    );
    server.listen(options.port, options.host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  const host =
    options.host === '0.0.0.0'
      ? '127.0.0.1'
      : options.host.includes(':')
        ? `[${options.host}]`
        : options.host;
  return {
    url: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function json(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    ...headers,
  });
  response.end(text);
}
