// The worker's decisions for each attempt, against the in-memory queue and a real receiver on loopback.
import { randomBytes, randomUUID } from 'node:crypto';

import { encryptSecret } from '@svc/db';
import { WebhookSender } from '@svc/webhook-sender';
import { TestReceiver } from '@svc/webhook-sender/testing';
import { pino } from 'pino';

import { loadConfig } from './config.js';
import { DeliveryProcessor } from './delivery.js';
import type { EventRow } from './delivery-rows.js';
import { MemoryDeliveryQueue } from './memory-delivery-queue.js';
import { WorkerMetrics } from './metrics.js';

const SECRET = 'a-receiver-secret-of-32-characters';
const config = loadConfig({
  NODE_ENV: 'test',
  MASTER_KEY: randomBytes(32).toString('base64'),
  WEBHOOK_ALLOW_HTTP: 'true',
  WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8',
  WEBHOOK_RETRY_DELAYS_MS: '50,100,150',
  DATA_DIR: '/nonexistent',
});
const sender = new WebhookSender({ policy: config.webhooks.receivers });
const processor = new DeliveryProcessor(config, sender, pino({ level: 'silent' }), new WorkerMetrics());
let answer = 200;
let receiver: TestReceiver;

beforeAll(async () => {
  receiver = await TestReceiver.start(SECRET, () => ({ status: answer }));
});
afterAll(async () => {
  await receiver.close();
  await sender.close();
});
beforeEach(() => {
  answer = 200;
});

/** An event of an organisation whose endpoint is the receiver, unless `endpoint` says otherwise. */
function eventRow(endpoint: Partial<EventRow> = {}): EventRow {
  const now = new Date();
  return {
    id: randomUUID(),
    org_id: 1,
    entity: 'Users',
    event_type: null,
    data: '{"orgUserId":"u-1","orgId":1,"kyc":false,"tnc":true}',
    status: 'PENDING',
    num_retries: 0,
    created_at: now,
    updated_at: now,
    retry_asked_at: null,
    endpoint_id: randomUUID(),
    url: receiver.url(`/${randomUUID()}`),
    secret_ciphertext: encryptSecret(config.masterKey, SECRET),
    endpoint_status: 'ACTIVE',
    paused_until: null,
    last_failure_email_at: null,
    ...endpoint,
  };
}

/** A queue whose clock runs an hour ahead, so that every retry and put-back attempt is due at once. */
const aheadQueue = () => new MemoryDeliveryQueue(() => Date.now() + 3_600_000);

describe('the delivery processor', () => {
  it('delivers a due event: DELIVERED, with its attempt recorded and nothing left to take', async () => {
    const queue = new MemoryDeliveryQueue();
    const row = eventRow();
    queue.add(row);
    const taken = await queue.take(10, processor.decide);
    expect(taken).toMatchObject({ count: 1, retried: [], givenUp: [] });
    expect(queue.event(row.id)).toMatchObject({ status: 'DELIVERED', numRetries: 0 });
    expect(queue.attempts.map((a) => [a.numRetries, a.result.statusCode])).toEqual([[0, 200]]);
    expect(receiver.requests.filter((r) => r.headers['svc-event-id'] === row.id)).toHaveLength(1);
    expect((await queue.take(10, processor.decide)).count).toBe(0);
  });

  it('retries a failed event on its schedule, then fails it for good after the third retry', async () => {
    answer = 500;
    const queue = aheadQueue();
    const row = eventRow();
    queue.add(row);
    const before = Date.now();
    expect((await queue.take(10, processor.decide)).retried).toEqual([1]);
    const first = queue.event(row.id);
    expect(first).toMatchObject({ status: 'PENDING', numRetries: 1 });
    // 50 ms ± 20 % (the test schedule), from the moment of the decision.
    expect(first!.nextAttemptAt - before).toBeGreaterThanOrEqual(40);
    expect(first!.nextAttemptAt - Date.now()).toBeLessThanOrEqual(60);
    expect((await queue.take(10, processor.decide)).retried).toEqual([2]);
    expect((await queue.take(10, processor.decide)).retried).toEqual([3]);
    expect((await queue.take(10, processor.decide)).givenUp).toEqual(['retries_exhausted']);
    expect(queue.event(row.id)).toMatchObject({ status: 'FAILED', numRetries: 3 });
    expect(queue.attempts.map((a) => a.numRetries)).toEqual([0, 1, 2, 3]);
    expect((await queue.take(10, processor.decide)).count).toBe(0);
  });

  it('makes a redelivery one attempt counted past the retries, never retried, DELIVERED only on a 200', async () => {
    answer = 500;
    const queue = aheadQueue();
    const row = eventRow({ num_retries: 3 });
    queue.add(row);
    await queue.take(10, processor.decide);
    expect(queue.event(row.id)).toMatchObject({ status: 'FAILED', numRetries: 3 });
    queue.redeliver(row.id);
    expect(await queue.take(10, processor.decide)).toMatchObject({ count: 1, retried: [], givenUp: [] });
    expect(queue.event(row.id)).toMatchObject({ status: 'FAILED', numRetries: 4 });
    expect(queue.queuedRedeliveries).toEqual([]);
    answer = 200;
    queue.redeliver(row.id);
    await queue.take(10, processor.decide);
    expect(queue.event(row.id)).toMatchObject({ status: 'DELIVERED', numRetries: 5 });
    expect(queue.attempts.map((a) => [a.numRetries, a.due.asked !== undefined])).toEqual([
      [3, false],
      [4, true],
      [5, true],
    ]);
  });

  it("counts a recovery's attempt for its recovery, and one that cannot be made as undelivered", async () => {
    const queue = new MemoryDeliveryQueue();
    const reachable = eventRow();
    const orphan = eventRow({ endpoint_id: null, url: null, endpoint_status: null });
    queue.add({ ...reachable, status: 'FAILED' }, Number.POSITIVE_INFINITY);
    queue.add({ ...orphan, status: 'FAILED' }, Number.POSITIVE_INFINITY);
    const recoveryId = randomUUID();
    queue.redeliver(reachable.id, recoveryId);
    queue.redeliver(orphan.id, recoveryId);
    expect((await queue.take(10, processor.decide)).count).toBe(2);
    expect(queue.recovered).toEqual(
      expect.arrayContaining([
        { recoveryId, eventId: reachable.id, delivered: true },
        { recoveryId, eventId: orphan.id, delivered: false },
      ]),
    );
    expect(queue.recovered).toHaveLength(2);
    expect(queue.queuedRedeliveries).toEqual([]);
    expect(queue.attempts.map((a) => a.due.row.id)).toEqual([reachable.id]);
  });

  it('skips an event whose organisation has no active endpoint, sending nothing', async () => {
    const queue = new MemoryDeliveryQueue();
    const row = eventRow({ endpoint_status: 'PENDING_CHALLENGE' });
    queue.add(row);
    await queue.take(10, processor.decide);
    expect(queue.event(row.id)?.status).toBe('SKIPPED');
    expect(queue.attempts).toEqual([]);
  });

  it('puts an attempt back until the time its endpoint asked for, without making it', async () => {
    const queue = new MemoryDeliveryQueue();
    const pausedUntil = new Date(Date.now() + 60_000);
    const row = eventRow({ paused_until: pausedUntil });
    queue.add(row);
    const taken = await queue.take(10, processor.decide);
    expect(taken.putBackUntil).toBe(pausedUntil.getTime());
    expect(queue.event(row.id)).toMatchObject({
      status: 'PENDING',
      numRetries: 0,
      nextAttemptAt: pausedUntil.getTime(),
    });
    expect(queue.attempts).toEqual([]);
  });

  it('fails an event past its delivery window without an attempt', async () => {
    const queue = new MemoryDeliveryQueue();
    const row = eventRow({ created_at: new Date(Date.now() - config.webhooks.windowMs - 1) });
    queue.add(row);
    expect((await queue.take(10, processor.decide)).givenUp).toEqual(['window_expired']);
    expect(queue.event(row.id)?.status).toBe('FAILED');
    expect(queue.attempts).toEqual([]);
  });

  it('lets a batch go undecided when its work fails: the attempt is due again', async () => {
    const queue = new MemoryDeliveryQueue();
    const row = eventRow();
    queue.add(row);
    await expect(queue.take(10, () => Promise.reject(new Error('the process died')))).rejects.toThrow();
    expect(queue.event(row.id)).toMatchObject({ status: 'PENDING', numRetries: 0 });
    await queue.take(10, processor.decide);
    expect(queue.event(row.id)?.status).toBe('DELIVERED');
  });

  it('gives at most half a batch to asked-for attempts while scheduled ones wait', async () => {
    const queue = new MemoryDeliveryQueue();
    const failed = Array.from({ length: 6 }, () => eventRow());
    for (const row of failed) {
      queue.add({ ...row, status: 'FAILED' }, Number.POSITIVE_INFINITY);
      queue.redeliver(row.id);
    }
    const scheduled = Array.from({ length: 6 }, () => eventRow());
    for (const row of scheduled) queue.add(row);
    expect((await queue.take(4, processor.decide)).count).toBe(4);
    expect(queue.attempts.filter((a) => a.due.asked)).toHaveLength(2);
    expect(queue.attempts.filter((a) => !a.due.asked)).toHaveLength(2);
  });
});
