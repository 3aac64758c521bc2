// The worker's limits: the delivery window (configured short rather than waited for), the outbox when
// no SMTP is configured, the address rules at every delivery, and a graceful stop.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { WebhookSender, type Resolver } from '@svc/webhook-sender';
import { TestReceiver } from '@svc/webhook-sender/testing';

import { WorkerFixture, sleep } from './support/worker-fixture.js';

const SECRET = 'whsec_worker-rules-secret';

describe('the delivery window and the outbox', () => {
  let fixture: WorkerFixture;
  let outbox: string;
  beforeAll(async () => {
    outbox = mkdtempSync(join(tmpdir(), 'svc-outbox-'));
    fixture = await WorkerFixture.start({
      WEBHOOK_WINDOW_MS: '3000',
      WEBHOOK_RETRY_DELAYS_MS: '1500,1500,1500',
      WEBHOOK_RETRY_JITTER: '0',
      OUTBOX_DIR: outbox,
    });
  });
  afterAll(async () => {
    await fixture.close();
    rmSync(outbox, { recursive: true, force: true });
  });

  it('makes no attempt after createdAt + window: FAILED, and without SMTP the e-mail goes to the outbox', async () => {
    const receiver = await TestReceiver.start(SECRET, () => ({ status: 500 }));
    try {
      const { orgId, supportEmail } = await fixture.createOrg(receiver.url(), SECRET);
      const id = await fixture.enqueueEvent(orgId);
      await fixture.waitForStatus(id, 'FAILED');
      // Attempt 0 at once, retry 1 after 1.5 s (inside 3 s), retry 2 would come after the window.
      expect(
        receiver.requests.map(
          (r) => (JSON.parse(r.body) as { event: { numRetries: number } }).event.numRetries,
        ),
      ).toEqual([0, 1]);
      await sleep(2000);
      expect(receiver.requests).toHaveLength(2);
      const file = await fixture.until(() => Promise.resolve(readdirSync(outbox)[0]));
      const mail = readFileSync(join(outbox, file), 'utf8').replace(/=\r?\n/g, '');
      expect(mail).toContain(supportEmail);
      expect(mail).toContain(id);
    } finally {
      await receiver.close();
    }
  });
});

describe('address rules at delivery (production rules; 127.0.0.1 allowed only to reach the test receiver)', () => {
  let fixture: WorkerFixture;
  let receiver: TestReceiver;
  let target: TestReceiver;
  const names: Record<string, string> = {
    'ok.example.com': '127.0.0.1',
    'metadata.example.com': '169.254.169.254',
    'private.example.com': '10.0.0.7',
    'loop.example.com': '127.0.0.2',
  };
  const resolver: Resolver = (hostname) => {
    const address = names[hostname];
    return address ? Promise.resolve([{ address, family: 4 }]) : Promise.reject(new Error('ENOTFOUND'));
  };
  beforeAll(async () => {
    target = await TestReceiver.start(SECRET, () => ({}), '127.0.0.2');
    receiver = await TestReceiver.start(SECRET, (request) =>
      request.path === '/redirect'
        ? { status: 302, headers: { location: target.url('/x', '127.0.0.2') } }
        : {},
    );
    fixture = await WorkerFixture.start(
      {},
      {
        sender: new WebhookSender({
          policy: { allowHttp: true, allowedNetworks: ['127.0.0.1/32'] },
          resolver,
        }),
      },
    );
  });
  afterAll(async () => {
    await fixture.close();
    await receiver.close();
    await target.close();
  });

  it.each(['metadata.example.com', 'private.example.com', 'loop.example.com'])(
    'refuses to connect to %s (a name resolving to a blocked address) on every attempt',
    async (host) => {
      const { orgId } = await fixture.createOrg(`http://${host}:${target.port}/hook`, SECRET);
      const id = await fixture.enqueueEvent(orgId);
      await fixture.waitForStatus(id, 'FAILED');
      const attempts = await fixture.rows<{ error_kind: string }>(
        'SELECT error_kind FROM webhook_attempts WHERE event_id = $1',
        [id],
      );
      expect(attempts.map((a) => a.error_kind)).toEqual(Array(4).fill('blocked_address'));
      expect(target.requests).toHaveLength(0);
    },
  );

  it('does not follow a redirect to a blocked address', async () => {
    const { orgId } = await fixture.createOrg(`http://ok.example.com:${receiver.port}/redirect`, SECRET);
    const id = await fixture.enqueueEvent(orgId);
    await fixture.waitForStatus(id, 'FAILED');
    const attempts = await fixture.rows<{ status_code: number }>(
      'SELECT status_code FROM webhook_attempts WHERE event_id = $1',
      [id],
    );
    expect(attempts.map((a) => a.status_code)).toEqual([302, 302, 302, 302]);
    expect(target.requests).toHaveLength(0);
  });
});

describe('graceful stop', () => {
  it('lets an attempt in flight finish and records it before stopping', async () => {
    const fixture = await WorkerFixture.start();
    const receiver = await TestReceiver.start(SECRET, () => ({ delayMs: 600 }));
    try {
      const { orgId } = await fixture.createOrg(receiver.url(), SECRET);
      const id = await fixture.enqueueEvent(orgId);
      await receiver.waitForRequests(1);
      await fixture.worker?.stop();
      fixture.worker = undefined;
      expect(await fixture.eventStatus(id)).toEqual({ status: 'DELIVERED', num_retries: 0 });
      const attempts = await fixture.rows('SELECT 1 FROM webhook_attempts WHERE event_id = $1', [id]);
      expect(attempts).toHaveLength(1);
    } finally {
      await receiver.close();
      await fixture.close();
    }
  });
});

describe('wake-ups', () => {
  it('fetches a job when its notification arrives, not at the next poll', async () => {
    const fixture = await WorkerFixture.start({ WEBHOOK_POLL_INTERVAL_MS: '60000' });
    const receiver = await TestReceiver.start(SECRET);
    try {
      const { orgId } = await fixture.createOrg(receiver.url(), SECRET);
      await sleep(300); // the fetchers' first poll, at start, is behind them
      const started = Date.now();
      const ids = [await fixture.enqueueEvent(orgId), await fixture.enqueueEvent(orgId)];
      for (const id of ids) await fixture.waitForStatus(id, 'DELIVERED', 5000);
      expect(Date.now() - started).toBeLessThan(1000);
    } finally {
      await receiver.close();
      await fixture.close();
    }
  });
});
