// The charts and the waiting work in a real browser (docs/dashboard.md#overview, docs/console.md#home):
// Chromium from @sparticuz/chromium against the real api on the embedded PostgreSQL. What a person sees:
// the dashboard's overview with its delivery and order charts, the console's home with its counts of
// waiting work (each linked to its section) and charts, their numbers one click away, coloured by the
// stylesheet (the CSP reports nothing), axe-core finding no serious or critical violation, at 1280 and
// 375 px without sideways scrolling.
import type { Page } from 'playwright-core';

import { Dec } from '../src/common/decimal.js';
import { KYC_TRANSITIONS } from '../src/kyc/kyc-state-machine.js';
import { ApiFixture, type OrgSession } from './support/app-fixture.js';
import { BrowserHarness, seriousAxeViolations, type WatchedPage } from './support/browser.js';
import { scrollsSideways, signedIn as consoleSignedIn } from './support/console-browser.js';
import { seedOrganisation, type SeededData, signInLink } from './support/dashboard-session.js';

jest.setTimeout(90_000);

const WIDTHS = [1280, 375] as const;

/** The current UTC hour as the charts label it. */
const thisHour = () => `${new Date().toISOString().slice(11, 13)}:00`;

async function accessible(tab: WatchedPage, name: string): Promise<void> {
  expect([name, await seriousAxeViolations(tab.page)]).toEqual([name, []]);
  expect([name, await scrollsSideways(tab.page)]).toEqual([name, false]);
  expect([name, tab.consoleErrors]).toEqual([name, []]);
}

/** The cells of the row of `point` in the table of the chart named `title`, after opening its numbers. */
async function chartRow(page: Page, title: string, point: string): Promise<string[]> {
  const figure = page.getByRole('figure', { name: title });
  await figure.getByText('The numbers').click();
  const row = figure
    .getByRole('row')
    // On a phone a card's cell is named with its column's label too ("Hour (UTC) 10:00").
    .filter({ has: page.getByRole('rowheader', { name: new RegExp(`(^|\\s)${point}$`) }) });
  return row.getByRole('cell').allInnerTexts();
}

describe('charts in a browser', () => {
  let api: ApiFixture;
  let browser: BrowserHarness;
  let org: OrgSession;
  let data: SeededData;

  beforeAll(async () => {
    [api, browser] = await Promise.all([ApiFixture.start(), BrowserHarness.launch()]);
    org = await api.createOrg({ name: 'Chart Brokers' });
    data = await seedOrganisation(org, 'chart');
    // The applicant, sent back with a request for information, submits the form again: a case waiting.
    const form = await org.bearer('POST', `/api/v1/user/${data.applicant}/kyc/form`, {
      body: {
        firstName: 'Ada',
        lastName: 'Lovelace',
        dateOfBirth: '1990-04-01',
        nationality: 'GB',
        address: { line1: '1 Main Street', city: 'London', postalCode: 'N1 1AA', country: 'GB' },
      },
    });
    expect(form.status).toBe(200);
    // Attempts of this hour as the worker records them: 3 delivered (100, 200, 300 ms), 2 failed (1000 ms).
    const [event] = await api.rows<{ id: string }>('SELECT id FROM events WHERE org_id = $1 LIMIT 1', [
      org.orgId,
    ]);
    await api.rows(
      `INSERT INTO webhook_attempts (event_id, org_id, url, num_retries, attempted_at, duration_ms, status_code,
                                     error_kind, response, delivered)
       SELECT $1, $2, 'https://hooks.example.com/', n, date_trunc('hour', now()) + n * interval '1 second',
              CASE WHEN n < 3 THEN (n + 1) * 100 ELSE 1000 END, CASE WHEN n < 3 THEN 200 ELSE 500 END,
              CASE WHEN n < 3 THEN NULL ELSE 'http_status' END, '', n < 3
         FROM generate_series(0, 4) n`,
      [event?.id, org.orgId],
    );
  });

  afterAll(async () => {
    await browser.close();
    await api.close();
  });

  describe.each(WIDTHS)('at %i px', (width) => {
    it("the dashboard's overview charts the organisation's deliveries and orders", async () => {
      const context = await browser.context({ width });
      const tab = await browser.page(context);
      await tab.page.goto(await signInLink(org));
      await tab.page.getByRole('button', { name: 'Continue to the dashboard' }).click();
      await tab.page.waitForURL(`${api.baseUrl}/dashboard/`);
      const page = tab.page;

      const hourly = page.getByRole('img', { name: /^Webhook attempts per hour, last 24 hours/ });
      await expect(hourly.isVisible()).resolves.toBe(true);
      // Two bars this hour, drawn in the stylesheet's colours for delivered and failed.
      const fills = await hourly
        .locator('rect.chart-bar')
        .evaluateAll((bars) => bars.map((bar) => getComputedStyle(bar).fill));
      expect(fills).toEqual(['rgb(17, 99, 41)', 'rgb(164, 14, 38)']);
      expect(await chartRow(page, 'Webhook attempts per hour, last 24 hours', thisHour())).toEqual([
        '3',
        '2',
      ]);
      // Nearest-rank percentiles of 100, 200, 300, 1000, 1000 ms.
      expect(
        await chartRow(page, "Time to the receiver's answer per hour, last 24 hours", thisHour()),
      ).toEqual(['300', '1000']);
      const today = new Date().toISOString().slice(5, 10);
      expect(await chartRow(page, 'Webhook attempts per day, last 7 days', today)).toEqual(['3', '2']);
      // The seeded order, completed today, and its volume with exactly its stored digits.
      const [order] = await api.rows<{ net: string }>(
        'SELECT net_executed_amount::text AS net FROM orders WHERE id = $1',
        [data.orderId],
      );
      expect(await chartRow(page, 'Orders per day, last 30 days', today)).toEqual(['1', '0', '0']);
      expect(await chartRow(page, 'Volume in EUR per day, last 30 days', today)).toEqual([
        new Dec(order?.net ?? 'NaN').toFixed(),
      ]);
      await accessible(tab, `dashboard overview at ${width}`);
      await context.close();
    });

    it("the console's home counts the waiting work with links, and charts every organisation's", async () => {
      const admin = await api.enrolOperator('ADMIN');
      const { context, tab } = await consoleSignedIn(browser, api, admin, width);
      const page = tab.page;
      const waiting = page.getByRole('region', { name: 'Waiting work' });
      const [stored] = await api.rows<{ n: number }>(
        'SELECT count(*)::int AS n FROM users WHERE kyc_state = ANY($1) AND kyc_expires_at IS NOT NULL',
        [KYC_TRANSITIONS.approve.from],
      );
      expect(stored?.n).toBeGreaterThan(0);
      await expect(waiting.innerText()).resolves.toMatch(
        new RegExp(`${stored?.n ?? -1}\\s+KYC cases? waiting`),
      );
      await expect(waiting.innerText()).resolves.toMatch(/1\s+pair halted[\s\S]*ETH_EUR/);
      await expect(waiting.innerText()).resolves.toMatch(/\d+\+?\s+webhook endpoints? not healthy/);
      await expect(
        waiting.getByRole('link', { name: 'Review the queue' }).getAttribute('href'),
      ).resolves.toBe('/console/kyc');
      await expect(
        waiting.getByRole('link', { name: 'See the endpoints' }).getAttribute('href'),
      ).resolves.toBe('/console/webhooks');
      await expect(
        waiting.getByRole('link', { name: 'See the notices and halts' }).getAttribute('href'),
      ).resolves.toBe('/console/notices');
      expect(await chartRow(page, 'Webhook attempts per hour, last 24 hours', thisHour())).toEqual([
        '3',
        '2',
      ]);
      const ages = page.getByRole('img', { name: /^KYC cases waiting, by time waited/ });
      await expect(ages.isVisible()).resolves.toBe(true);
      await accessible(tab, `console home at ${width}`);
      await context.close();
    });
  });

  beforeAll(async () => {
    // A halt in force, through the admin api as an operator would publish it.
    const halt = await api.admin('POST', '/api/v1/admin/notices', {
      body: { event: 'ASSET_DISABLE', entity: 'ETH_EUR', message: 'Maintenance' },
    });
    expect(halt.status).toBe(200);
  });

  it('shows a support operator the counts without a link to the KYC queue their role does not open', async () => {
    const { context, tab } = await consoleSignedIn(browser, api, await api.enrolOperator('SUPPORT'));
    const waiting = tab.page.getByRole('region', { name: 'Waiting work' });
    await expect(waiting.innerText()).resolves.toMatch(/KYC cases? waiting/);
    await expect(waiting.getByRole('link', { name: 'Review the queue' }).count()).resolves.toBe(0);
    await context.close();
  });

  it('leaves the orders out of the overview of a session that may not see orders', async () => {
    const context = await browser.context({});
    const tab = await browser.page(context);
    await tab.page.goto(await signInLink(org, { pages: ['OVERVIEW'] }));
    await tab.page.getByRole('button', { name: 'Continue to the dashboard' }).click();
    await tab.page.waitForURL(`${api.baseUrl}/dashboard/`);
    await expect(tab.page.getByRole('img', { name: /^Webhook attempts per hour/ }).count()).resolves.toBe(1);
    await expect(tab.page.getByRole('img', { name: /^Orders per day/ }).count()).resolves.toBe(0);
    await context.close();
  });
});
