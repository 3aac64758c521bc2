// The worker as operators run it: the built process on its own port answers /healthz, /readyz and a
// token-protected /metrics that promtool's rules pass; its counters move as deliveries succeed, fail
// (with their error kind), are retried, are given up (retries spent, or the window, shortened here to
// 10 s, run out) and end in a failure e-mail. The queue gauges are read from a real pg-boss queue; readiness
// follows PostgreSQL (cut through a relay) and the stop.
import { createServer } from 'node:net';

import { TcpProxy } from '@svc/db/testing';
import { lintExposition, parseExposition, sampleValue, type MetricFamily } from '@svc/runtime/testing';
import { TestReceiver } from '@svc/webhook-sender/testing';
import { pino } from 'pino';

import { WorkerMetrics } from '../src/metrics.js';
import { SmtpCatcher, WorkerFixture, sleep } from './support/worker-fixture.js';
import { WorkerProcess } from './support/worker-process.js';

const SECRET = 'whsec_worker-operations-secret';
const METRICS_TOKEN = 'metrics-token-for-the-worker-tests-0123456789';
const WINDOW_MS = 10_000;

/** A loopback port nothing listens on: attempts to it are refused. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe('the worker process for operators', () => {
  let fixture: WorkerFixture;
  let receiver: TestReceiver;
  let smtp: SmtpCatcher;
  let worker: WorkerProcess;

  async function scrape(token = METRICS_TOKEN): Promise<{ text: string; families: MetricFamily[] }> {
    const response = await fetch(`${worker.opsUrl}/metrics`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    return { text, families: parseExposition(text) };
  }

  beforeAll(async () => {
    fixture = await WorkerFixture.start({}, { worker: false });
    smtp = await SmtpCatcher.start();
    // Paths choose the answer: /fail answers 500, /busy a first 503 with Retry-After: 1, the rest 200.
    let busy = 0;
    receiver = await TestReceiver.start(SECRET, (request) => {
      if (request.path === '/fail') return { status: 500 };
      if (request.path === '/busy' && busy++ === 0) return { status: 503, headers: { 'retry-after': '1' } };
      return {};
    });
    worker = await WorkerProcess.start(fixture.db.url, {
      METRICS_TOKEN,
      SMTP_URL: smtp.url,
      WEBHOOK_WINDOW_MS: String(WINDOW_MS),
    });
  });
  afterAll(async () => {
    await worker.stop();
    await receiver.close();
    await smtp.close();
    await fixture.close();
  });

  it('answers /healthz and /readyz in the envelope, and nothing else on its port', async () => {
    const health = await fetch(`${worker.opsUrl}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ data: { status: 'ok' } });
    const ready = await fetch(`${worker.opsUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ data: { status: 'ready' } });
    const other = await fetch(`${worker.opsUrl}/api/v1/events`);
    expect(other.status).toBe(404);
    const post = await fetch(`${worker.opsUrl}/healthz`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  it('/metrics: 401 without the token or with another, never a metric in the answer', async () => {
    for (const headers of [
      {},
      { authorization: `Bearer ${METRICS_TOKEN}x` },
      { authorization: METRICS_TOKEN },
    ]) {
      const response = await fetch(`${worker.opsUrl}/metrics`, { headers });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
      const body = await response.text();
      expect(body).toContain('METRICS_TOKEN');
      expect(body).not.toContain(METRICS_TOKEN);
      expect(body).not.toContain('webhook_');
    }
  });

  it('exposes every worker metric, named and typed as promtool wants', async () => {
    const { text, families } = await scrape();
    expect(lintExposition(text)).toEqual([]);
    const types = Object.fromEntries(families.map((family) => [family.name, family.type]));
    expect(types).toMatchObject({
      webhook_deliveries_total: 'COUNTER',
      webhook_delivery_latency_seconds: 'HISTOGRAM',
      webhook_retries_total: 'COUNTER',
      webhook_events_given_up_total: 'COUNTER',
      webhook_attempts_put_back_total: 'COUNTER',
      webhook_failure_emails_total: 'COUNTER',
      webhook_delivery_queue_depth: 'GAUGE',
      webhook_delivery_queue_oldest_age_seconds: 'GAUGE',
      db_pool_connections: 'GAUGE',
      db_pool_idle_connections: 'GAUGE',
      db_pool_waiting_requests: 'GAUGE',
      db_pool_max_connections: 'GAUGE',
      process_cpu_user_seconds_total: 'COUNTER',
    });
    expect(sampleValue(families, 'db_pool_max_connections')).toBeGreaterThan(0);
    expect(sampleValue(families, 'webhook_delivery_queue_depth', { state: 'due' })).toBe(0);
  });

  it('counts a delivery and its commit-to-200 latency', async () => {
    const { orgId } = await fixture.createOrg(receiver.url('/ok'), SECRET);
    const before = (await scrape()).families;
    const id = await fixture.enqueueEvent(orgId);
    await fixture.waitForStatus(id, 'DELIVERED');
    const { text, families } = await scrape();
    const delivered = { outcome: 'delivered', error_kind: 'none' };
    expect(sampleValue(families, 'webhook_deliveries_total', delivered)).toBe(
      sampleValue(before, 'webhook_deliveries_total', delivered) + 1,
    );
    const latency = families.find((f) => f.name === 'webhook_delivery_latency_seconds')?.metrics[0];
    const latencyBefore = before.find((f) => f.name === 'webhook_delivery_latency_seconds')?.metrics[0];
    expect(Number(latency?.count)).toBe(Number(latencyBefore?.count) + 1);
    expect(Number(latency?.sum)).toBeGreaterThan(Number(latencyBefore?.sum));
    // Bounded labels: no event id, organisation or URL anywhere in the exposition.
    expect(text).not.toContain(id);
    expect(text).not.toContain('127.0.0.1');
  });

  it('counts failures by error kind, each retry, the give-up when retries are spent, and the e-mail', async () => {
    const failing = await fixture.createOrg(receiver.url('/fail'), SECRET);
    const refused = await fixture.createOrg(`http://127.0.0.1:${await closedPort()}/hook`, SECRET);
    const before = (await scrape()).families;
    const ids = [await fixture.enqueueEvent(failing.orgId), await fixture.enqueueEvent(refused.orgId)];
    for (const id of ids) await fixture.waitForStatus(id, 'FAILED');
    await fixture.until(() => Promise.resolve(smtp.mailsTo(failing.supportEmail).length > 0));
    await fixture.until(() => Promise.resolve(smtp.mailsTo(refused.supportEmail).length > 0));

    const after = (await scrape()).families;
    const moved = (name: string, labels: Record<string, string>) =>
      sampleValue(after, name, labels) - sampleValue(before, name, labels);
    // The first attempt and three retries each.
    expect(moved('webhook_deliveries_total', { outcome: 'failed', error_kind: 'http_status' })).toBe(4);
    expect(moved('webhook_deliveries_total', { outcome: 'failed', error_kind: 'connection_refused' })).toBe(
      4,
    );
    for (const retry of ['1', '2', '3']) expect(moved('webhook_retries_total', { retry })).toBe(2);
    expect(moved('webhook_events_given_up_total', { reason: 'retries_exhausted' })).toBe(2);
    expect(moved('webhook_events_given_up_total', { reason: 'window_expired' })).toBe(0);
    expect(moved('webhook_failure_emails_total', { transport: 'smtp' })).toBe(2);
  });

  it('counts an event given up when its delivery window has run out, without an attempt', async () => {
    const { orgId } = await fixture.createOrg(receiver.url('/ok'), SECRET);
    const before = (await scrape()).families;
    const requests = receiver.requests.length;
    const id = await fixture.enqueueEvent(orgId, { createdAt: new Date(Date.now() - WINDOW_MS - 1000) });
    await fixture.waitForStatus(id, 'FAILED');
    const after = (await scrape()).families;
    const reason = { reason: 'window_expired' };
    expect(sampleValue(after, 'webhook_events_given_up_total', reason)).toBe(
      sampleValue(before, 'webhook_events_given_up_total', reason) + 1,
    );
    expect(sampleValue(after, 'webhook_deliveries_total')).toBe(
      sampleValue(before, 'webhook_deliveries_total'),
    );
    expect(receiver.requests.length).toBe(requests);
  });
  it('counts an attempt put back because its endpoint asked for time', async () => {
    const { orgId } = await fixture.createOrg(receiver.url('/busy'), SECRET);
    const before = (await scrape()).families;
    const first = await fixture.enqueueEvent(orgId);
    await fixture.until(() => Promise.resolve(receiver.requests.some((request) => request.path === '/busy')));
    // The endpoint is paused for a second: this event is put back without an attempt, then delivered.
    const second = await fixture.enqueueEvent(orgId);
    for (const id of [first, second]) await fixture.waitForStatus(id, 'DELIVERED');
    const after = (await scrape()).families;
    const moved = (reason: string) =>
      sampleValue(after, 'webhook_attempts_put_back_total', { reason }) -
      sampleValue(before, 'webhook_attempts_put_back_total', { reason });
    expect(moved('endpoint_paused')).toBeGreaterThanOrEqual(1);
    expect(moved('endpoint_busy')).toBe(0);
    expect(receiver.requests.filter((request) => request.path === '/busy')).toHaveLength(3);
  });
});

describe('the delivery queue gauges', () => {
  let fixture: WorkerFixture;
  beforeAll(async () => {
    fixture = await WorkerFixture.start({}, { worker: false });
  });
  afterAll(() => fixture.close());

  it('report the due and scheduled attempts and how long the oldest due one has waited', async () => {
    const metrics = new WorkerMetrics();
    metrics.observeDatabase(fixture.db.dataSource, pino({ level: 'silent' }));
    const { orgId } = await fixture.createOrg('', SECRET);
    const first = await fixture.enqueueEvent(orgId);
    const second = await fixture.enqueueEvent(orgId);
    // Two redeliveries: one due for 90 s, one put back for an hour.
    await fixture.rows(
      `INSERT INTO webhook_redeliveries (event_id, due_at)
       VALUES ($1, now() - interval '90 seconds'), ($2, now() + interval '1 hour')`,
      [first, second],
    );

    const text = await metrics.registry.metrics();
    expect(lintExposition(text)).toEqual([]);
    const families = parseExposition(text);
    expect(sampleValue(families, 'webhook_delivery_queue_depth', { state: 'due' })).toBe(3);
    expect(sampleValue(families, 'webhook_delivery_queue_depth', { state: 'scheduled' })).toBe(1);
    const age = sampleValue(families, 'webhook_delivery_queue_oldest_age_seconds');
    expect(age).toBeGreaterThanOrEqual(89);
    expect(age).toBeLessThan(120);
  });

  it('are left out, not reported as zero, when the queue query times out', async () => {
    const metrics = new WorkerMetrics();
    metrics.observeDatabase(fixture.db.dataSource, pino({ level: 'silent' }));
    // Another transaction holds the redeliveries: the gauges' query waits out its statement timeout.
    const runner = fixture.db.dataSource.createQueryRunner();
    await runner.startTransaction();
    try {
      await runner.query('LOCK TABLE webhook_redeliveries IN ACCESS EXCLUSIVE MODE');
      const started = Date.now();
      const text = await metrics.registry.metrics();
      expect(Date.now() - started).toBeLessThan(3000);
      expect(lintExposition(text)).toEqual([]);
      expect(text).toContain('# TYPE webhook_delivery_queue_depth gauge');
      expect(text).not.toMatch(/^webhook_delivery_queue_depth\{/m);
      expect(text).not.toMatch(/^webhook_delivery_queue_oldest_age_seconds\{/m);
      expect(text).toMatch(/^db_pool_connections \d+/m);
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
    // Once the table is free again, the next scrape (past the shared query's second) has them back.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const families = parseExposition(await metrics.registry.metrics());
    expect(families.find((f) => f.name === 'webhook_delivery_queue_depth')?.metrics.length).toBe(2);
  });
});

describe('the worker process readiness', () => {
  let fixture: WorkerFixture;
  let proxy: TcpProxy | undefined;
  let worker: WorkerProcess | undefined;
  let receiver: TestReceiver | undefined;

  beforeEach(async () => {
    fixture = await WorkerFixture.start({}, { worker: false });
  });
  afterEach(async () => {
    await worker?.stop();
    await receiver?.close();
    await proxy?.close();
    await fixture.close();
  });

  /** The status of /readyz and its message. */
  async function readiness(): Promise<[number, string]> {
    const response = await fetch(`${worker?.opsUrl ?? ''}/readyz`);
    return [response.status, await response.text()];
  }

  it('is not ready while PostgreSQL cannot be reached, and ready again once it can; alive throughout', async () => {
    const direct = new URL(fixture.db.url);
    proxy = await TcpProxy.start(direct.hostname, Number(direct.port));
    direct.port = String(proxy.port);
    worker = await WorkerProcess.start(direct.toString());
    expect((await readiness())[0]).toBe(200);

    await proxy.cut();
    const [status, text] = await readiness();
    expect(status).toBe(503);
    expect(text).toContain('not ready: the database cannot be reached');
    expect((await fetch(`${worker.opsUrl}/healthz`)).status).toBe(200);

    await proxy.restore();
    await fixture.until(async () => (await readiness())[0] === 200, 20_000);
  }, 40_000);

  it('is not ready once SIGTERM starts the stop, while the attempt in flight finishes', async () => {
    receiver = await TestReceiver.start(SECRET, () => ({ delayMs: 3000 }));
    const { orgId } = await fixture.createOrg(receiver.url('/slow'), SECRET);
    worker = await WorkerProcess.start(fixture.db.url);
    const id = await fixture.enqueueEvent(orgId);
    await receiver.waitForRequests(1);
    worker.kill('SIGTERM');
    await sleep(200);
    const [status, text] = await readiness();
    expect(status).toBe(503);
    expect(text).toContain('not ready: the worker is shutting down');
    expect((await fetch(`${worker.opsUrl}/healthz`)).status).toBe(200);
    await worker.exited;
    // The attempt in flight ran to its end (the test sender gives up after 1 s) and was recorded.
    const attempts = await fixture.rows<{ error_kind: string }>(
      'SELECT error_kind FROM webhook_attempts WHERE event_id = $1',
      [id],
    );
    expect(attempts).toEqual([{ error_kind: 'timeout' }]);
  }, 40_000);
});
