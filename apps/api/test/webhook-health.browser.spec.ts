// Webhook health and Retry now in a real browser: the dashboard (overview, webhook page) and the operator
// console say the same health word for the same endpoint, from the attempts the worker recorded; a retrying
// event's page and the events list show RETRYING with its next attempt and last error, and Retry now
// (CSRF-protected, MANAGE_WEBHOOKS only) makes the scheduled retry due at once. Every page axe-clean at
// 1280 and 375 px. The worker's side of Retry now is in webhook-health.e2e.spec.ts.
import { randomUUID } from 'node:crypto';

import { encryptSecret } from '@svc/db';
import type { Page } from 'playwright-core';

import { ApiFixture, type OrgSession } from './support/app-fixture.js';
import { BrowserHarness, seriousAxeViolations, type WatchedPage } from './support/browser.js';
import { signedIn as consoleSignedIn } from './support/console-browser.js';
import { DashboardClient, type Permission, signInLink } from './support/dashboard-session.js';
import type { EnrolledOperator } from './support/enrolled-operator.js';

jest.setTimeout(120_000);

const URL_IN = 'https://hooks.example.com/in';

describe('webhook health and Retry now in a browser', () => {
  let api: ApiFixture;
  let browser: BrowserHarness;
  let support: EnrolledOperator;
  let failing: OrgSession;
  let healthy: OrgSession;
  let retryingId: string;
  let scheduledAt: Date;

  /** An ACTIVE endpoint, as a passed challenge leaves it. */
  const endpoint = (org: OrgSession) =>
    api.rows(
      `INSERT INTO webhook_endpoints (org_id, url, secret_ciphertext, status) VALUES ($1, $2, $3, 'ACTIVE')`,
      [org.orgId, URL_IN, encryptSecret(api.config.masterKey, 'whsec_health-0123456789')],
    );
  /** An event with its attempts as the worker records them (apps/webhooks/src/delivery-rows.ts). */
  const event = async (org: OrgSession, numRetries: number, outcomes: readonly boolean[]) => {
    const id = randomUUID();
    await api.rows(
      `INSERT INTO events (id, org_id, entity, data, status, num_retries, next_attempt_at)
       VALUES ($1, $2, 'Users', '{}', $3, $4, now() + interval '1 hour')`,
      [id, org.orgId, outcomes.at(-1) ? 'DELIVERED' : 'PENDING', numRetries],
    );
    for (const [n, delivered] of outcomes.entries()) {
      await api.rows(
        `INSERT INTO webhook_attempts (event_id, org_id, url, num_retries, attempted_at, duration_ms, status_code,
                                       error_kind, response, delivered, event_updated_at)
         VALUES ($1, $2, $3, $4, now(), 12, $5, $6, $7, $5 = 200, now())`,
        [
          id,
          org.orgId,
          URL_IN,
          n,
          delivered ? 200 : 503,
          delivered ? null : 'http_status',
          delivered ? '' : 'down for maintenance',
        ],
      );
    }
    return id;
  };

  beforeAll(async () => {
    [api, browser] = await Promise.all([ApiFixture.start(), BrowserHarness.launch()]);
    support = await api.enrolOperator('SUPPORT', 'sam@ops.test');
    failing = await api.createOrg({ name: 'Failing Brokers' });
    healthy = await api.createOrg({ name: 'Healthy Brokers' });
    await endpoint(failing);
    await endpoint(healthy);
    await event(healthy, 0, [true]);
    // Three failed attempts in a row, the last two of an event whose next retry is scheduled: FAILING.
    await event(failing, 1, [false]);
    retryingId = await event(failing, 2, [false, false]);
    const [row] = await api.rows<{ next_attempt_at: Date }>(
      'SELECT next_attempt_at FROM events WHERE id = $1',
      [retryingId],
    );
    scheduledAt = row!.next_attempt_at;
  });

  afterAll(async () => {
    await browser.close();
    await api.close();
  });

  async function dashboard(org: OrgSession, permissions: readonly Permission[], width?: number) {
    const context = await browser.context(width === undefined ? {} : { width });
    const tab = await browser.page(context);
    await tab.page.goto(await signInLink(org, { permissions }));
    await tab.page.getByRole('button', { name: 'Continue to the dashboard' }).click();
    await tab.page.waitForURL(`${api.baseUrl}/dashboard/`);
    return { context, tab };
  }

  /** The page is accessible, fits its width, and logged no error. */
  async function checkPage(tab: WatchedPage, name: string, width: number) {
    expect([name, await seriousAxeViolations(tab.page)]).toEqual([name, []]);
    expect([name, await tab.page.evaluate(() => document.documentElement.scrollWidth)]).toEqual([
      name,
      width,
    ]);
    expect([name, tab.consoleErrors]).toEqual([name, []]);
  }

  /** The health words a page shows, by the state each stands for. */
  const healthWords = (page: Page) =>
    page
      .locator('[data-health]')
      .evaluateAll((nodes) => nodes.map((node) => [node.getAttribute('data-health'), node.textContent]));

  it.each([1280, 375])(
    'shows the same health word on the dashboard and the console at %i px',
    async (width) => {
      const { context, tab } = await dashboard(failing, [], width);
      const { page } = tab;
      expect(await healthWords(page)).toEqual([['FAILING', 'Failing']]);
      const overview = await page.locator('main').innerText();
      expect(overview).toContain('The last 3 attempts failed.');
      expect(overview).toContain('HTTP 503');
      expect(overview).toContain('down for maintenance');
      await checkPage(tab, `overview-${width}`, width);
      await page.goto(`${api.baseUrl}/dashboard/webhook`);
      expect(await healthWords(page)).toEqual([['FAILING', 'Failing']]);
      expect(await page.locator('main').innerText()).toContain('Active: its challenge passed');
      await checkPage(tab, `webhook-${width}`, width);
      await context.close();

      const operator = await consoleSignedIn(browser, api, support, width);
      await operator.tab.page.goto(`${api.baseUrl}/console/webhooks?show=all`);
      const rows = operator.tab.page.getByRole('region', { name: 'Webhook endpoints, by organisation' });
      const failingRow = rows.getByRole('row', { name: /Failing Brokers/ });
      const healthyRow = rows.getByRole('row', { name: /Healthy Brokers/ });
      expect(await healthWords(operator.tab.page)).toEqual(
        expect.arrayContaining([
          ['FAILING', 'Failing'],
          ['HEALTHY', 'Healthy'],
        ]),
      );
      expect(await failingRow.innerText()).toContain('Failing');
      expect(await healthyRow.innerText()).toContain('Healthy');
      await checkPage(operator.tab, `console-webhooks-${width}`, width);
      // By default the console lists only the endpoints not healthy.
      await operator.tab.page.goto(`${api.baseUrl}/console/webhooks`);
      const text = await operator.tab.page.locator('main').innerText();
      expect(text).toContain('Failing Brokers');
      expect(text).not.toContain('Healthy Brokers');
      await operator.context.close();

      // And the api says the same.
      const answer = await failing.bearer<{ health: { state: string } }>('GET', '/api/v1/webhooks/');
      expect(answer.body.data?.health.state).toBe('FAILING');
    },
  );

  it('shows a retrying event as RETRYING with its next attempt and last error, and retries it now', async () => {
    const { context, tab } = await dashboard(failing, ['MANAGE_WEBHOOKS'], 375);
    const { page } = tab;
    await page.goto(`${api.baseUrl}/dashboard/events`);
    const listed = await page.getByRole('row', { name: new RegExp(retryingId) }).innerText();
    expect(listed).toContain('RETRYING');
    expect(listed).toContain('next attempt');
    expect(listed).toContain('HTTP 503');
    await checkPage(tab, 'events-retrying', 375);

    await page.getByRole('link', { name: retryingId }).click();
    await page.waitForURL(`${api.baseUrl}/dashboard/events/${retryingId}`);
    const facts = await page.locator('main').innerText();
    expect(facts).toContain('RETRYING');
    // The next attempt's time, exact in the <time> element (its text is in the viewer's zone).
    const times = await page
      .locator('main time')
      .evaluateAll((elements) => elements.map((element) => element.getAttribute('datetime')));
    expect(times).toContain(scheduledAt.toISOString());
    expect(facts).toContain('down for maintenance');
    expect(await page.getByRole('button', { name: 'Redeliver this event' }).count()).toBe(0);
    await checkPage(tab, 'event-retrying', 375);
    await page.getByRole('button', { name: 'Retry now' }).click();
    await page.waitForURL(/retried=1/);
    expect(await page.getByRole('status').first().textContent()).toContain('made now');
    expect(
      await api.rows(
        'SELECT status, num_retries, next_attempt_at <= now() AS due, retry_asked_at IS NOT NULL AS asked FROM events WHERE id = $1',
        [retryingId],
      ),
    ).toEqual([{ status: 'PENDING', num_retries: 2, due: true, asked: true }]);
    await checkPage(tab, 'event-retried', 375);
    await context.close();
  });

  it('takes Retry now only with the permission and the form token, and only for a retrying event', async () => {
    const id = await event(failing, 1, [false]);
    const reader = await DashboardClient.signIn(await signInLink(failing));
    expect((await reader.get(`/dashboard/events/${id}`)).html).not.toContain('Retry now</button>');
    expect((await reader.post(`/dashboard/events/${id}/retry-now`)).status).toBe(403);
    const manager = await DashboardClient.signIn(
      await signInLink(failing, { permissions: ['MANAGE_WEBHOOKS'] }),
    );
    expect((await manager.post(`/dashboard/events/${id}/retry-now`, {}, { csrf: false })).status).toBe(403);
    const untouched = 'SELECT next_attempt_at > now() AS later, retry_asked_at FROM events WHERE id = $1';
    expect(await api.rows(untouched, [id])).toEqual([{ later: true, retry_asked_at: null }]);

    const delivered = await event(failing, 0, [true]);
    const refused = await manager.post(
      `/dashboard/events/${delivered}/retry-now`,
      {},
      { from: `/dashboard/events/${delivered}` },
    );
    expect(refused.status).toBe(409);
    expect(refused.html).toContain('the event is no longer retrying: it is DELIVERED');
    expect(await api.rows('SELECT 1 FROM webhook_redeliveries WHERE event_id = $1', [delivered])).toEqual([]);
  });
});
