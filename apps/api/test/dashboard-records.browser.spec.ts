// Numbers, times and lists as people read them on the dashboard, in a real browser (docs/dashboard.md):
// amounts grouped with their currency and every stored digit, the exact decimal one hover away; rates as
// percentages; times in the viewer's own zone (the exact UTC value in datetime and title), UTC without the
// script; lists leading with what an item concerns. axe-core at 1280 and 375 px.
import type { BrowserContext, Page } from 'playwright-core';

import { ApiFixture, type OrgSession } from './support/app-fixture.js';
import {
  BrowserHarness,
  seriousAxeViolations,
  sidewaysReading,
  type WatchedPage,
} from './support/browser.js';
import {
  ALL_PERMISSIONS,
  seedOrganisation,
  type SeededData,
  signInLink,
} from './support/dashboard-session.js';

jest.setTimeout(90_000);

/** A price with every digit numeric(38,8) keeps after the point. */
const PRICE = '12345.12345678';

describe('numbers, times and lists on the dashboard', () => {
  let api: ApiFixture;
  let browser: BrowserHarness;
  let org: OrgSession;
  let data: SeededData;

  beforeAll(async () => {
    [api, browser] = await Promise.all([ApiFixture.start(), BrowserHarness.launch()]);
    await api.rows('INSERT INTO prices (symbol, price) VALUES ($1, $2)', ['BTC_EUR', PRICE]);
    org = await api.createOrg({ name: 'Exact Brokers', kycDomain: 'localhost' });
    data = await seedOrganisation(org, 'num');
  });

  afterAll(async () => {
    await browser.close();
    await api.close();
  });

  async function signedIn(
    options: { width?: number; timezoneId?: string; javaScriptEnabled?: boolean } = {},
  ): Promise<{ context: BrowserContext; tab: WatchedPage }> {
    const context = await browser.context(options);
    const tab = await browser.page(context);
    await tab.page.goto(await signInLink(org, { permissions: ALL_PERMISSIONS }));
    await tab.page.getByRole('button', { name: 'Continue to the dashboard' }).click();
    await tab.page.waitForURL(`${api.baseUrl}/dashboard/`);
    return { context, tab };
  }

  async function accessible(tab: WatchedPage, what: string): Promise<void> {
    expect([what, await seriousAxeViolations(tab.page)]).toEqual([what, []]);
    expect([what, tab.consoleErrors]).toEqual([what, []]);
  }

  /** A fact's shown value, and the exact value its <data> element holds. */
  const fact = (page: Page, label: string) =>
    page
      .locator('dl.facts > div', { has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) })
      .locator('dd')
      .evaluate((dd) => ({
        text: dd.textContent,
        values: [...dd.querySelectorAll('data')].map((element) => [element.value, element.title]),
      }));

  /** numeric(38,8) text without its trailing zeros: the exact decimal. */
  const exact = (stored: string) => stored.replace(/\.?0+$/, '');

  it('shows amounts grouped with their currency, every digit kept and the exact value in the title', async () => {
    const [order] = await api.rows<{ price: string; total: string; quantity: string }>(
      'SELECT price, total_executed_amount AS total, quantity FROM orders WHERE id = $1',
      [data.orderId],
    );
    expect(order!.price).toBe(PRICE);
    const { context, tab } = await signedIn();
    const { page } = tab;
    await page.goto(`${api.baseUrl}/dashboard/orders/${data.orderId}`);
    await expect(fact(page, 'Price')).resolves.toEqual({
      text: '12,345.12345678 EUR',
      values: [[PRICE, `Exactly ${PRICE} EUR`]],
    });
    const total = exact(order!.total);
    const grouped = total.replace(/^(\d+)/, (digits) => digits.replace(/\B(?=(\d{3})+$)/g, ','));
    await expect(fact(page, 'Total amount')).resolves.toEqual({
      text: `${grouped} EUR`,
      values: [[total, `Exactly ${total} EUR`]],
    });
    await expect(fact(page, 'Quantity')).resolves.toMatchObject({ text: `${exact(order!.quantity)} BTC` });
    // Rates as percentages, the stored fraction exactly in the title.
    await expect(fact(page, 'Commission')).resolves.toMatchObject({
      text: expect.stringMatching(/ EUR \(rate 0\.15 %\)$/) as string,
      values: [expect.anything() as unknown, ['0.0015', 'Exactly 0.0015']],
    });
    await accessible(tab, 'order');

    await page.goto(`${api.baseUrl}/dashboard/`);
    await expect(fact(page, 'Commission rate')).resolves.toEqual({
      text: '0.15 %',
      values: [['0.0015', 'Exactly 0.0015']],
    });
    await expect(fact(page, 'VAT rate')).resolves.toMatchObject({ text: '21 %' });
    await expect(page.locator('main').innerText()).resolves.toContain('25,000 EUR');
    await accessible(tab, 'overview');
    await context.close();
  });

  it("shows times in the viewer's zone with the exact UTC value kept, and in UTC without the script", async () => {
    const [stored] = await api.rows<{ created_at: Date }>('SELECT created_at FROM orders WHERE id = $1', [
      data.orderId,
    ]);
    const iso = stored!.created_at.toISOString();
    // India is 5 h 30 min ahead of UTC all year: the local time differs from UTC in hours and minutes.
    const local = new Date(stored!.created_at.getTime() + 330 * 60_000).toISOString().slice(11, 19);
    const created = (page: Page) =>
      page
        .locator('dl.facts > div', { has: page.locator('dt', { hasText: /^Created$/ }) })
        .locator('time')
        .evaluate((time: HTMLTimeElement) => ({
          text: time.textContent,
          dateTime: time.dateTime,
          title: time.title,
        }));

    const { context, tab } = await signedIn({ timezoneId: 'Asia/Kolkata' });
    await tab.page.goto(`${api.baseUrl}/dashboard/orders/${data.orderId}`);
    const shown = await created(tab.page);
    expect(shown).toMatchObject({ dateTime: iso, title: iso });
    expect(shown.text).toContain(local);
    expect(shown.text).not.toContain('UTC');
    await accessible(tab, 'order-in-kolkata');
    await context.close();

    const bare = await signedIn({ javaScriptEnabled: false });
    await bare.tab.page.goto(`${api.baseUrl}/dashboard/orders/${data.orderId}`);
    const text = await bare.tab.page
      .locator('dl.facts > div', { has: bare.tab.page.locator('dt', { hasText: /^Created$/ }) })
      .locator('time')
      .innerText();
    expect(text).toBe(`${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`);
    await expect(
      bare.tab.page.locator(`time[datetime="${iso}"][title="${iso}"]`).first().count(),
    ).resolves.toBe(1);
    await bare.context.close();
  });

  it('leads each list with what an item concerns: the user, or the side and pair of an order', async () => {
    const { context, tab } = await signedIn();
    const { page } = tab;
    const firstCells = () =>
      page.locator('tbody tr').evaluateAll((rows) => rows.map((row) => row.querySelector('td')?.textContent));
    await page.goto(`${api.baseUrl}/dashboard/events`);
    const concerns = await firstCells();
    expect(concerns).toContain(`BUY BTC_EUR · order ${data.orderId}`);
    expect(concerns).toContain(`user ${data.applicant}`);
    expect(concerns).toContain(`user ${data.trader}`);
    const [events] = await api.rows<{ n: number }>(
      'SELECT count(*)::int AS n FROM events WHERE org_id = $1',
      [org.orgId],
    );
    expect(concerns).toHaveLength(events!.n);
    expect(concerns.some((text) => /^[0-9a-f-]{36}$/.test(text ?? ''))).toBe(false);
    await accessible(tab, 'events');
    const [orderEvent] = await api.rows<{ id: string }>(
      "SELECT id FROM events WHERE org_id = $1 AND entity = 'Orders' AND (data->>'id')::bigint = $2",
      [org.orgId, data.orderId],
    );
    await page.getByRole('link', { name: `BUY BTC_EUR · order ${data.orderId}` }).click();
    await page.waitForURL(`${api.baseUrl}/dashboard/events/${orderEvent!.id}`);
    await page.goto(`${api.baseUrl}/dashboard/orders`);
    expect(await firstCells()).toEqual(['BUY BTC_EUR']);
    await accessible(tab, 'orders');
    await context.close();
  });

  it('reads at 375 px: amounts and times in cards within the screen, accessible', async () => {
    const { context, tab } = await signedIn({ width: 375 });
    const { page } = tab;
    for (const path of ['/dashboard/orders', `/dashboard/orders/${data.orderId}`, '/dashboard/events']) {
      await page.goto(`${api.baseUrl}${path}`);
      expect([path, await sidewaysReading(page)]).toEqual([path, { pageScrolls: false, cut: [] }]);
      await accessible(tab, path);
    }
    await page.goto(`${api.baseUrl}/dashboard/orders`);
    const status = page.locator('tbody tr').first().locator('.badge');
    const box = await status.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(375);
    await expect(status.innerText()).resolves.toBe('COMPLETED');
    await context.close();
  });
});
