// The built worker as separate processes (docs/decisions.md, "Testing: processes and the worker"): two of
// them share the load, a kill -9 in the middle of a batch loses no event and its jobs come back within 30 s,
// and a PostgreSQL restart under load is survived without help. Real receiver, real PostgreSQL; the restart
// uses a server of its own.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startEmbeddedPostgres, type RunningPostgres } from '@svc/db/dev';
import { TestReceiver } from '@svc/webhook-sender/testing';

import { WorkerFixture, sleep } from './support/worker-fixture.js';
import { WorkerProcess } from './support/worker-process.js';

const SECRET = 'whsec_worker-processes-secret';

/** Every event id the receiver got with a valid signature, and how often. */
function receipts(receiver: TestReceiver): Map<string, number> {
  const counts = new Map<string, number>();
  for (const request of receiver.requests) {
    if (!request.verified) throw new Error(`a request with a bad signature: ${request.body}`);
    const id = String(request.headers['svc-event-id']);
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

/** Resolves once no event of the database is left undelivered; returns their ids. */
async function allDelivered(fixture: WorkerFixture, timeoutMs: number): Promise<string[]> {
  await fixture.until(async () => {
    const [left] = await fixture.rows<{ n: number }>(
      `SELECT count(*)::int AS n FROM events WHERE status <> 'DELIVERED'`,
    );
    return left?.n === 0;
  }, timeoutMs);
  return (await fixture.rows<{ id: string }>('SELECT id FROM events')).map((row) => row.id);
}

async function enqueue(fixture: WorkerFixture, orgIds: number[], count: number): Promise<string[]> {
  return Promise.all(
    Array.from({ length: count }, (_, i) => fixture.enqueueEvent(orgIds[i % orgIds.length]!)),
  );
}

async function createOrgs(fixture: WorkerFixture, receiver: TestReceiver, count: number) {
  const orgs = [];
  for (let i = 0; i < count; i++) orgs.push(await fixture.createOrg(receiver.url(`/org-${i}`), SECRET));
  return orgs.map((org) => org.orgId);
}

describe('worker processes on one database', () => {
  let fixture: WorkerFixture;
  let receiver: TestReceiver | undefined;
  const workers: WorkerProcess[] = [];

  beforeEach(async () => {
    fixture = await WorkerFixture.start({}, { worker: false });
  });
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((worker) => worker.stop()));
    await receiver?.close();
    await fixture.close();
  });

  it('two processes share the load, each event delivered once', async () => {
    receiver = await TestReceiver.start(SECRET, () => ({ delayMs: 20 }));
    const orgIds = await createOrgs(fixture, receiver, 4);
    const [a, b] = await Promise.all([
      WorkerProcess.start(fixture.db.url),
      WorkerProcess.start(fixture.db.url),
    ]);
    workers.push(a, b);
    const ids = await enqueue(fixture, orgIds, 300);
    expect(await allDelivered(fixture, 20_000)).toHaveLength(300);

    const counts = receipts(receiver);
    expect([...counts.keys()].sort()).toEqual([...ids].sort());
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    // The workers' log lines come through pipes, and may trail the commit a moment on a busy machine.
    const logged = () => a.delivered().length + b.delivered().length;
    for (const deadline = Date.now() + 5000; logged() < ids.length && Date.now() < deadline;)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const byA = a.delivered();
    const byB = b.delivered();
    expect([...byA, ...byB].sort()).toEqual([...ids].sort());
    expect(byA.length).toBeGreaterThan(300 * 0.15);
    expect(byB.length).toBeGreaterThan(300 * 0.15);
  }, 40_000);

  it('kill -9 in the middle of a batch loses no event; its events are delivered again within 30 s', async () => {
    receiver = await TestReceiver.start(SECRET, () => ({ delayMs: 200 }));
    const orgIds = await createOrgs(fixture, receiver, 4);
    const doomed = await WorkerProcess.start(fixture.db.url);
    const ids = await enqueue(fixture, orgIds, 200);
    await receiver.waitForRequests(40);
    // The events the process holds: the rows its open transactions have locked.
    const [held] = await fixture.rows<{ n: number }>(
      `SELECT count(*)::int AS n FROM events WHERE status = 'PENDING' AND id NOT IN
         (SELECT id FROM events WHERE status = 'PENDING' FOR UPDATE SKIP LOCKED)`,
    );
    doomed.kill('SIGKILL');
    const killedAt = Date.now();
    await doomed.exited;
    expect(held?.n).toBeGreaterThan(0);

    workers.push(await WorkerProcess.start(fixture.db.url));
    expect(await allDelivered(fixture, 30_000)).toHaveLength(200);
    expect(Date.now() - killedAt).toBeLessThan(30_000);
    const counts = receipts(receiver);
    expect([...counts.keys()].sort()).toEqual([...ids].sort());
    // The killed process's transactions rolled back: the events it had sent were sent again.
    expect([...counts.values()].some((n) => n > 1)).toBe(true);
  }, 45_000);
});

describe('a PostgreSQL restart under load', () => {
  let dir: string;
  let postgres: RunningPostgres;
  let fixture: WorkerFixture;
  let receiver: TestReceiver;
  let worker: WorkerProcess | undefined;

  beforeAll(async () => {
    // A server of its own: the run's shared server must not go down under the other test files.
    dir = mkdtempSync(join(tmpdir(), 'svc-restart-pg-'));
    postgres = await startEmbeddedPostgres({ dir });
    fixture = await WorkerFixture.start({}, { worker: false, url: postgres.url() });
    receiver = await TestReceiver.start(SECRET, () => ({ delayMs: 20 }));
  });
  afterAll(async () => {
    await worker?.stop();
    await receiver.close();
    await fixture.close();
    await postgres.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the worker reconnects by itself and every committed event is delivered', async () => {
    const orgIds = await createOrgs(fixture, receiver, 2);
    worker = await WorkerProcess.start(postgres.url());
    const current = worker;
    // Events keep coming, one transaction each, as from the api; those refused during the outage were
    // never committed, so they are not events.
    const load = new AbortController();
    let restartedAt = Infinity;
    const afterRestart: string[] = [];
    const producer = (async () => {
      for (let i = 0; !load.signal.aborted; i++) {
        try {
          const id = await fixture.enqueueEvent(orgIds[i % orgIds.length]!);
          if (Date.now() > restartedAt) afterRestart.push(id);
        } catch {
          await sleep(100);
        }
        await sleep(5);
      }
    })();

    await receiver.waitForRequests(50);
    await postgres.stop();
    await sleep(2000);
    postgres = await startEmbeddedPostgres({ dir, port: postgres.port });
    restartedAt = Date.now();
    await sleep(2000);
    load.abort();
    await producer;

    const ids = await allDelivered(fixture, 30_000);
    expect(afterRestart.length).toBeGreaterThan(0);
    expect(ids).toEqual(expect.arrayContaining(afterRestart));
    const counts = receipts(receiver);
    expect(ids.filter((id) => !counts.has(id))).toEqual([]);
    expect(current.running).toBe(true);
    // It did see the outage: pg-boss reported it and carried on.
    expect(current.logged('queue error')).toBe(true);
  }, 45_000);
});
