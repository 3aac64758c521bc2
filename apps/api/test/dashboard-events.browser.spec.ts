// The dashboard's events pages in a real browser with the real webhooks worker (docs/dashboard.md#events):
// the built worker (apps/webhooks/dist/main.js) delivers to a real receiver on loopback that fails until the
// test mends it; the event ends FAILED after its retries, is redelivered from its page, and the receiver gets
// the body the page shows, byte for byte, with the headers it shows; a recovery since a time redelivers
// another. Every new page passes axe-core, works by keyboard and reads at 375 px. SCREENSHOTS=<dir> saves a
// picture of each page (scripts/dashboard-screenshots.mjs).
import { type ReceivedRequest, TestReceiver } from '@svc/webhook-sender/testing';
import type { BrowserContext, Page } from 'playwright-core';

import { ApiFixture, type OrgSession } from './support/app-fixture.js';
import {
  BrowserHarness,
  screenshot,
  seriousAxeViolations,
  sidewaysReading,
  type WatchedPage,
} from './support/browser.js';
import { DashboardClient, type Permission, signInLink } from './support/dashboard-session.js';
import { WorkerProcess } from './support/worker-process.js';

const SECRET = 'whsec_dashboard-events-0123456789';
const BROKEN = { status: 500, body: 'receiver broken: try again later' };

jest.setTimeout(120_000);

/** Polls `check` until it is true; fails after `timeoutMs` (a loaded machine delivers slowly). */
async function until(check: () => Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('the events pages with the worker, in a browser', () => {
  let api: ApiFixture;
  let browser: BrowserHarness;
  let receiver: TestReceiver;
  let worker: WorkerProcess;
  let org: OrgSession;
  let failedId: string;

  /** Makes a user through the api: one Users event. Answers the event's id. */
  async function newEvent(orgUserId: string): Promise<string> {
    const made = await org.bearer('POST', '/api/v1/user/', { body: { orgUserId, kyc: true, tnc: true } });
    expect(made.status).toBe(200);
    const [row] = await api.rows<{ id: string }>(
      "SELECT id FROM events WHERE org_id = $1 AND data->>'orgUserId' = $2",
      [org.orgId, orgUserId],
    );
    return row!.id;
  }

  const statusOf = async (id: string) =>
    (await api.rows<{ status: string }>('SELECT status FROM events WHERE id = $1', [id]))[0]?.status;

  /** The receiver's requests for one event, in the order they came. */
  const receivedFor = (id: string): ReceivedRequest[] =>
    receiver.requests.filter((request) => request.headers['svc-event-id'] === id);

  beforeAll(async () => {
    [api, browser, receiver] = await Promise.all([
      ApiFixture.start({ WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' }),
      BrowserHarness.launch(),
      TestReceiver.start(SECRET),
    ]);
    org = await api.createOrg({ name: 'Events Brokers', kycDomain: 'localhost' });
    const registered = await org.bearer('POST', '/api/v1/webhooks/', {
      body: { url: receiver.url(), secret: SECRET },
    });
    expect(registered.status).toBe(200);
    worker = await WorkerProcess.start(api, {
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8',
      WEBHOOK_RETRY_DELAYS_MS: '100,100,100',
      WEBHOOK_RETRY_JITTER: '0',
      WEBHOOK_POLL_INTERVAL_MS: '500',
      FAILURE_EMAIL_DELAY_MS: '60000',
    });
    // The receiver fails every attempt: the event runs through its retries and ends FAILED.
    receiver.responder = () => BROKEN;
    failedId = await newEvent('events-first');
    await until(async () => (await statusOf(failedId)) === 'FAILED', 'the event to fail');
  });

  afterAll(async () => {
    await worker.stop();
    await browser.close();
    await receiver.close();
    await api.close();
  });

  async function signedIn(
    permissions: readonly Permission[],
    width?: number,
  ): Promise<{ context: BrowserContext; tab: WatchedPage }> {
    const context = await browser.context(width === undefined ? {} : { width });
    const tab = await browser.page(context);
    await tab.page.goto(await signInLink(org, { permissions }));
    await tab.page.getByRole('button', { name: 'Continue to the dashboard' }).click();
    await tab.page.waitForURL(`${api.baseUrl}/dashboard/`);
    return { context, tab };
  }

  async function checkPage(tab: WatchedPage, name: string, shot: 'page' | 'screen' | 'none' = 'page') {
    expect([name, await seriousAxeViolations(tab.page)]).toEqual([name, []]);
    expect([name, tab.consoleErrors]).toEqual([name, []]);
    if (shot !== 'none') await screenshot(tab.page, name, shot === 'page');
  }

  const mainText = async (page: Page) => (await page.locator('main').textContent()) ?? '';

  /** What the event's page shows of the attempt that started at `at`: its headers and body. */
  async function shownRequest(page: Page, at: Date) {
    const iso = at.toISOString();
    // Inside a closed <details>: out of the accessibility tree until opened, but there.
    const region = (name: string) => page.getByRole('region', { name, includeHidden: true });
    const headers = await region(`Headers sent at ${iso}`).textContent();
    const body = await region(`Body sent at ${iso}`).textContent();
    return {
      headers: Object.fromEntries(
        (headers ?? '')
          .split('\n')
          .map((line) => [line.slice(0, line.indexOf(': ')), line.slice(line.indexOf(': ') + 2)]),
      ),
      body,
    };
  }

  /** The page shows exactly what the receiver got: every header the worker sent, and the body. */
  async function expectShownAsReceived(page: Page, request: ReceivedRequest) {
    expect(request.verified).toBe(true);
    const at = new Date(Number(request.headers['svc-timestamp']));
    const shown = await shownRequest(page, at);
    expect(shown.body).toBe(request.body);
    expect(shown.headers).toEqual({
      'content-type': request.headers['content-type'],
      'svc-signature': request.headers['svc-signature'],
      'svc-timestamp': request.headers['svc-timestamp'],
      'svc-event-id': request.headers['svc-event-id'],
      'user-agent': request.headers['user-agent'],
    });
  }

  it('lists the events with filters, shows a FAILED event with every attempt as the receiver got it, and redelivers it byte for byte', async () => {
    const { context, tab } = await signedIn(['MANAGE_WEBHOOKS']);
    const { page } = tab;
    await page.getByRole('link', { name: 'Events', exact: true }).click();
    await page.waitForURL(`${api.baseUrl}/dashboard/events`);
    expect(await mainText(page)).toContain(failedId);
    await checkPage(tab, 'events');

    await page.getByRole('combobox', { name: 'Delivery status' }).selectOption('DELIVERED');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/status=DELIVERED/);
    expect(await mainText(page)).toContain('No event matches.');
    await page.getByRole('combobox', { name: 'Delivery status' }).selectOption('FAILED');
    await page.getByRole('combobox', { name: 'Entity' }).selectOption('Users');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/status=FAILED/);
    expect(await page.locator('tbody tr').count()).toBe(1);
    await checkPage(tab, 'events-filtered', 'none');

    await page.getByRole('link', { name: failedId }).click();
    await page.waitForURL(`${api.baseUrl}/dashboard/events/${failedId}`);
    const failures = receivedFor(failedId);
    expect(failures).toHaveLength(4);
    const text = await mainText(page);
    expect(text).toContain('FAILED');
    expect(text).toContain('HTTP 500');
    expect(text).toContain(BROKEN.body);
    expect(await page.locator('tbody tr').count()).toBe(4);
    // The body shown first is the one the first attempt carried; each attempt's request is the one received.
    expect(await page.getByRole('region', { name: "The event's body" }).textContent()).toBe(
      failures[0]!.body,
    );
    for (const request of failures) await expectShownAsReceived(page, request);
    await page.locator('details summary').first().click();
    await checkPage(tab, 'event-failed');

    // The receiver is mended; the event is redelivered from its page.
    receiver.responder = () => ({});
    await page.getByRole('button', { name: 'Redeliver this event' }).click();
    await page.waitForURL(/redelivered=1/);
    expect(await page.getByRole('status').first().textContent()).toContain('queued for redelivery');
    await until(async () => (await statusOf(failedId)) === 'DELIVERED', 'the redelivery');
    const redelivered = receivedFor(failedId)[4]!;
    expect(JSON.parse(redelivered.body)).toMatchObject({ event: { numRetries: 4 } });
    await page.reload();
    expect(await page.locator('tbody tr').count()).toBe(5);
    const row = page.locator('tbody tr').last();
    expect(await row.textContent()).toContain('redelivery, numRetries 4');
    expect(await row.textContent()).toContain('HTTP 200');
    await expectShownAsReceived(page, redelivered);
    expect(await mainText(page)).toContain('DELIVERED');
    await checkPage(tab, 'event-redelivered');
    await context.close();
  });

  it('recovers the failed events since a time and shows the recovery with its counts', async () => {
    receiver.responder = () => BROKEN;
    const lostId = await newEvent('events-second');
    await until(async () => (await statusOf(lostId)) === 'FAILED', 'the second event to fail');
    receiver.responder = () => ({});
    const { context, tab } = await signedIn(['MANAGE_WEBHOOKS']);
    const { page } = tab;
    await page.goto(`${api.baseUrl}/dashboard/events`);
    await page.getByRole('textbox', { name: /^Since/ }).fill(new Date(Date.now() - 3600_000).toISOString());
    await page.getByRole('button', { name: 'Recover failed events' }).click();
    await page.waitForURL(/\/dashboard\/events\/recoveries\/[0-9a-f-]{36}$/);
    await until(async () => {
      await page.reload();
      return (await mainText(page)).includes('COMPLETED');
    }, 'the recovery to complete');
    const facts = await mainText(page);
    expect(facts).toMatch(/Events chosen\s*1/);
    expect(facts).toMatch(/Delivered\s*1/);
    expect(facts).toMatch(/Failed again\s*0/);
    await checkPage(tab, 'events-recovery');
    expect(await statusOf(lostId)).toBe('DELIVERED');
    const last = receivedFor(lostId).at(-1)!;
    expect(last.verified).toBe(true);
    await page.goto(`${api.baseUrl}/dashboard/events/${lostId}`);
    await expectShownAsReceived(page, last);

    // The overview counts what the worker did, not events waiting for it.
    await page.goto(`${api.baseUrl}/dashboard/`);
    const overview = await mainText(page);
    const [attempts] = await api.rows<{ ok: number; failed: number }>(
      'SELECT count(*) FILTER (WHERE delivered)::int AS ok, count(*) FILTER (WHERE NOT delivered)::int AS failed FROM webhook_attempts WHERE org_id = $1',
      [org.orgId],
    );
    expect(attempts).toEqual({ ok: 2, failed: 8 });
    expect(overview).toMatch(/Events delivered\s*2/);
    expect(overview).toMatch(/Events pending\s*0/);
    expect(overview).toMatch(/Attempts delivered\s*2/);
    expect(overview).toMatch(/Attempts failed\s*8/);
    await checkPage(tab, 'overview-with-worker');
    await context.close();
  });

  it('offers a read-only session no action, works by keyboard, and reads at 375 px', async () => {
    const { context, tab } = await signedIn([], 375);
    const { page } = tab;
    // By keyboard: to the Events section, to the event, and its attempts' details open with Enter.
    for (let presses = 0; presses < 20; presses++) {
      await page.keyboard.press('Tab');
      if ((await page.evaluate(() => document.activeElement?.textContent)) === 'Events') break;
    }
    await page.keyboard.press('Enter');
    await page.waitForURL(`${api.baseUrl}/dashboard/events`);
    for (let presses = 0; presses < 40; presses++) {
      await page.keyboard.press('Tab');
      if ((await page.evaluate(() => document.activeElement?.textContent)) === failedId) break;
    }
    await page.keyboard.press('Enter');
    await page.waitForURL(`${api.baseUrl}/dashboard/events/${failedId}`);
    for (let presses = 0; presses < 40; presses++) {
      await page.keyboard.press('Tab');
      if ((await page.evaluate(() => document.activeElement?.tagName)) === 'SUMMARY') break;
    }
    await page.keyboard.press('Enter');
    expect(await page.locator('details[open]').count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Redeliver this event' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Recover failed events' }).count()).toBe(0);
    expect(await mainText(page)).toContain('This session may only read');
    const [recovery] = await api.rows<{ id: string }>('SELECT id FROM webhook_recoveries');
    for (const [path, name] of [
      ['/dashboard/events', 'mobile-events'],
      [`/dashboard/events/${failedId}`, 'mobile-event'],
      [`/dashboard/events/recoveries/${recovery!.id}`, 'mobile-recovery'],
    ] as const) {
      await page.goto(`${api.baseUrl}${path}`);
      // Each list is a stack of cards: every cell, the delivery status among them, within the screen.
      await expect(sidewaysReading(page)).resolves.toEqual({ pageScrolls: false, cut: [] });
      if (name !== 'mobile-recovery') {
        expect(await page.locator('main tbody tr .badge').first().isVisible()).toBe(true);
      }
      await checkPage(tab, name, name === 'mobile-recovery' ? 'none' : 'screen');
    }
    await context.close();
  });

  it('shows no signature for attempts made before the webhook was registered again (the secret may differ)', async () => {
    const client = await DashboardClient.signIn(await signInLink(org));
    const before = (await client.get(`/dashboard/events/${failedId}`)).html;
    expect(before.match(/svc-signature: [0-9a-f]{64}/g)).toHaveLength(5);
    const rotated = await org.bearer('POST', '/api/v1/webhooks/', {
      body: { url: receiver.url('/rotated'), secret: 'whsec_rotated-0123456789abcdef' },
    });
    expect(rotated.status).toBe(200);
    const after = (await client.get(`/dashboard/events/${failedId}`)).html;
    expect(after).not.toContain('svc-signature: ');
    expect(after.match(/svc-signature is not shown: the webhook was registered again at/g)).toHaveLength(5);
    expect(after.match(/svc-timestamp: [0-9]{13}/g)).toHaveLength(5);
  });
});
