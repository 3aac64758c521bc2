// The organisation dashboard in a real browser (docs/dashboard.md): Chromium from @sparticuz/chromium driven
// by playwright-core, against the real api on the embedded PostgreSQL and a real webhook receiver on
// loopback. What a person sees and does: signing in by link, every page with data (axe-core finds no serious
// or critical violation, the CSP reports nothing), every action, the keyboard, a 375 px screen.
// Protocol-level checks (cookie attributes, CSRF, permissions, isolation on every route) are in
// dashboard-sessions.e2e.spec.ts. SCREENSHOTS=<dir> saves a picture of each page
// (scripts/dashboard-screenshots.mjs).
import { signedRequestHeaders } from '@svc/protocol';
import { TestReceiver } from '@svc/webhook-sender/testing';
import type { BrowserContext, Page } from 'playwright-core';

import { ApiFixture, type OrgSession } from './support/app-fixture.js';
import {
  BrowserHarness,
  screenshot,
  seriousAxeViolations,
  sidewaysReading,
  type WatchedPage,
} from './support/browser.js';
import {
  ALL_PERMISSIONS,
  type Permission,
  seedOrganisation,
  type SeededData,
  signInLink,
} from './support/dashboard-session.js';

const SECRET = 'whsec_dashboard-browser-0123456789';

jest.setTimeout(60_000);

describe('the dashboard in a browser', () => {
  let api: ApiFixture;
  let browser: BrowserHarness;
  let receiver: TestReceiver;
  let org: OrgSession;
  let data: SeededData;

  beforeAll(async () => {
    [api, browser, receiver] = await Promise.all([
      ApiFixture.start({ WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' }),
      BrowserHarness.launch(),
      TestReceiver.start(SECRET),
    ]);
    org = await api.createOrg({ name: 'Demo Brokers', kycDomain: 'localhost' });
    data = await seedOrganisation(org, 'demo');
    const registered = await org.bearer('POST', '/api/v1/webhooks/', {
      body: { url: receiver.url(), secret: SECRET },
    });
    expect(registered.status).toBe(200);
  });

  afterAll(async () => {
    await browser.close();
    await receiver.close();
    await api.close();
  });

  /** A new browser context signed in through a fresh link (the person's own browser). */
  async function signedIn(
    permissions: readonly Permission[] = ALL_PERMISSIONS,
    width?: number,
  ): Promise<{ context: BrowserContext; tab: WatchedPage }> {
    const context = await browser.context(width === undefined ? {} : { width });
    const tab = await browser.page(context);
    await tab.page.goto(await signInLink(org, { permissions }));
    await tab.page.getByRole('button', { name: 'Continue to the dashboard' }).click();
    await tab.page.waitForURL(`${api.baseUrl}/dashboard/`);
    return { context, tab };
  }

  /**
   * The page is accessible (no serious or critical axe violation) and reported no console error; `shot`
   * names its picture in docs/dashboard/ (whole page, or the first screen for a long one).
   */
  async function checkPage(
    tab: WatchedPage,
    name: string,
    shot: 'page' | 'screen' | 'none' = 'page',
  ): Promise<void> {
    expect([name, await seriousAxeViolations(tab.page)]).toEqual([name, []]);
    expect([name, tab.consoleErrors]).toEqual([name, []]);
    if (shot !== 'none') await screenshot(tab.page, name, shot === 'page');
  }

  const heading = (page: Page) => page.getByRole('heading', { level: 1 });

  it('signs in by link once, shows whose dashboard it is, and signs out', async () => {
    const context = await browser.context();
    const tab = await browser.page(context);
    const link = await signInLink(org, { permissions: ['MANAGE_WEBHOOKS'] });
    await tab.page.goto(link);
    await expect(heading(tab.page).textContent()).resolves.toBe('Sign in');
    await expect(tab.page.locator('main').textContent()).resolves.toContain('Demo Brokers');
    await checkPage(tab, 'sign-in');
    await tab.page.getByRole('button', { name: 'Continue to the dashboard' }).click();
    await tab.page.waitForURL(`${api.baseUrl}/dashboard/`);
    await expect(tab.page.locator('header').textContent()).resolves.toContain('Demo Brokers');
    const [cookie] = await context.cookies();
    expect(cookie).toMatchObject({
      name: 'svc_dashboard',
      httpOnly: true,
      sameSite: 'Strict',
      path: '/dashboard',
    });

    // The link is spent: opening it again in another browser says so.
    const stranger = await browser.page(await browser.context());
    const again = await stranger.page.goto(link);
    expect(again?.status()).toBe(401);
    await expect(heading(stranger.page).textContent()).resolves.toBe('You are signed out');

    await tab.page.getByRole('button', { name: 'Sign out' }).click();
    await tab.page.waitForURL(`${api.baseUrl}/dashboard/signed-out`);
    expect(await context.cookies()).toEqual([]);
    const after = await tab.page.goto(`${api.baseUrl}/dashboard/`);
    expect(after?.status()).toBe(401);
    await context.close();
  });

  it('refuses an expired link in the browser', async () => {
    const context = await browser.context();
    const tab = await browser.page(context);
    const link = await signInLink(org);
    await api.rows(
      "UPDATE dashboard_links SET expires_at = now() - interval '1 second' WHERE used_at IS NULL",
    );
    expect((await tab.page.goto(link))?.status()).toBe(401);
    await expect(tab.page.locator('main').textContent()).resolves.toContain('Ask your organisation');
    await context.close();
  });

  it('renders every page with its data, accessibly, under the CSP, with no console error', async () => {
    const { context, tab } = await signedIn();
    const { page } = tab;
    const visit = async (
      path: string,
      title: string,
      name: string,
      shows: readonly string[],
      shot: 'page' | 'screen' = 'page',
    ) => {
      const answer = await page.goto(`${api.baseUrl}${path}`);
      expect([path, answer?.status()]).toEqual([path, 200]);
      expect(answer?.headers()['content-security-policy']).toContain("script-src 'self'");
      await expect(heading(page).textContent()).resolves.toBe(title);
      const text = (await page.locator('main').textContent()) ?? '';
      for (const expected of shows) expect([path, text]).toEqual([path, expect.stringContaining(expected)]);
      await checkPage(tab, name, shot);
    };
    await visit('/dashboard/', 'Overview', 'overview', [
      'Demo Brokers',
      'ENTERPRISE',
      'Active',
      'BTC, ETH',
      '25,000 EUR',
      receiver.url(),
    ]);
    await visit('/dashboard/webhook', 'Webhook', 'webhook', [
      receiver.url(),
      'Show the secret',
      'Send test event',
    ]);
    await visit('/dashboard/users', 'Users', 'users', [data.trader, data.applicant, 'KYC_RFI']);
    await page.getByRole('searchbox', { name: 'orgUserId starts with' }).fill('demo-app');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/q=demo-app/);
    expect(await page.locator('tbody tr').count()).toBe(1);
    await visit(`/dashboard/users/${data.applicant}`, `User ${data.applicant}`, 'user', [
      'KYC_RFI',
      'Please upload a clearer passport photo',
      'KYC_FORM_SUBMITTED',
      'KYC_DOC_UPLOADED',
      'passport.pdf',
    ]);
    await visit(`/dashboard/users/${data.trader}`, `User ${data.trader}`, 'user-positions', ['BTC', '0.01']);
    await visit('/dashboard/orders', 'Orders', 'orders', [String(data.orderId), 'BTC_EUR', 'COMPLETED']);
    await page.getByRole('combobox', { name: 'Status' }).selectOption('REJECTED');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/status=REJECTED/);
    await expect(page.locator('main').textContent()).resolves.toContain('No order matches.');
    await visit(`/dashboard/orders/${data.orderId}`, `Order ${data.orderId}`, 'order', [
      '50,000 EUR',
      data.trader,
    ]);
    await visit('/dashboard/credentials', 'API keys and OAuth clients', 'credentials', [
      org.apiKey,
      org.clientId,
      'Live',
    ]);
    await visit(
      '/dashboard/catalogue',
      'Event catalogue',
      'catalogue',
      ['KYC_DOC_UPLOADED', 'SystemInformation', '"numRetries": 0'],
      'screen',
    );
    await context.close();
  });

  it('reveals the secret with the permission (audited), and offers nothing without it', async () => {
    const { context, tab } = await signedIn(['REVEAL_SECRET']);
    await tab.page.goto(`${api.baseUrl}/dashboard/webhook`);
    await tab.page.getByRole('button', { name: 'Show the secret' }).click();
    await expect(tab.page.getByTestId('webhook-secret').textContent()).resolves.toBe(SECRET);
    await checkPage(tab, 'webhook-secret');
    const audit = await api.rows<{ actor: string; org_id: number }>(
      "SELECT actor, org_id FROM audit_log WHERE action = 'webhook.secret-reveal'",
    );
    expect(audit).toEqual([
      { actor: expect.stringMatching(/^dashboard session [0-9a-f-]{36}$/) as string, org_id: org.orgId },
    ]);
    await context.close();

    const reader = await signedIn([]);
    await reader.tab.page.goto(`${api.baseUrl}/dashboard/webhook`);
    expect(await reader.tab.page.getByRole('button', { name: 'Show the secret' }).count()).toBe(0);
    await expect(reader.tab.page.locator('main').textContent()).resolves.toContain('may not show the secret');
    expect(await reader.tab.page.getByRole('button', { name: 'Save and run the challenge' }).count()).toBe(0);
    await reader.context.close();
  });

  it('changes the webhook URL through the challenge against a real receiver, and sends a test event', async () => {
    const { context, tab } = await signedIn(['MANAGE_WEBHOOKS']);
    const { page } = tab;
    const next = await TestReceiver.start(SECRET);
    const broken = await TestReceiver.start(SECRET, () => ({ status: 500, body: 'no' }));
    try {
      await page.goto(`${api.baseUrl}/dashboard/webhook`);
      // The organisation's endpoint is ACTIVE, so a failed challenge changes nothing and says why.
      const [before] = await api.rows<{ url: string; status: string }>(
        'SELECT url, status FROM webhook_endpoints WHERE org_id = $1',
        [org.orgId],
      );
      expect(before!.status).toBe('ACTIVE');
      await page.getByRole('textbox', { name: 'URL' }).fill(broken.url('/broken'));
      await page.getByRole('button', { name: 'Save and run the challenge' }).click();
      await expect(page.getByRole('alert').textContent()).resolves.toContain(
        'did not pass its challenge (the receiver answered HTTP 500, not 200)',
      );
      // The page answered 409 on purpose, which the browser reports; nothing else may be there.
      expect(tab.consoleErrors.splice(0)).toEqual([
        'Failed to load resource: the server responded with a status of 409 (Conflict)',
      ]);
      expect(broken.requests).toHaveLength(1);
      expect(broken.requests[0]!.verified).toBe(true);
      await expect(
        api.rows('SELECT url, status FROM webhook_endpoints WHERE org_id = $1', [org.orgId]),
      ).resolves.toEqual([before]);

      await page.getByRole('textbox', { name: 'URL' }).fill(next.url('/next'));
      await page.getByRole('button', { name: 'Save and run the challenge' }).click();
      await expect(page.getByRole('status').first().textContent()).resolves.toContain('The challenge passed');
      expect(next.requests).toHaveLength(1);
      const [stored] = await api.rows<{ url: string; status: string }>(
        'SELECT url, status FROM webhook_endpoints WHERE org_id = $1',
        [org.orgId],
      );
      expect(stored).toEqual({ url: next.url('/next'), status: 'ACTIVE' });

      await page.getByRole('combobox', { name: 'Event' }).selectOption('Users/KYC_COMPLETED');
      await page.getByRole('button', { name: 'Send test event' }).click();
      await expect(page.getByRole('status').first().textContent()).resolves.toContain(
        'The test event was delivered',
      );
      await checkPage(tab, 'webhook-test-event');
      expect(next.requests).toHaveLength(2);
      const sent = next.requests[1]!;
      expect(sent.verified).toBe(true);
      expect(sent.headers['svc-event-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(JSON.parse(sent.body)).toMatchObject({
        event: { orgId: org.orgId, entity: 'Users', eventType: 'KYC_COMPLETED', numRetries: 0 },
        data: { kyc: true, userStatus: 'ACTIVE' },
      });
    } finally {
      await org.bearer('POST', '/api/v1/webhooks/', { body: { url: receiver.url(), secret: SECRET } });
      await next.close();
      await broken.close();
      await context.close();
    }
  });

  it('revokes an API key after asking, and requests signed with it then fail', async () => {
    const spare = await api.admin<{ id: string; apiKey: string; apiSecret: string }>(
      'POST',
      `/api/v1/admin/orgs/${org.orgId}/api-keys/`,
      { body: { label: 'spare' } },
    );
    const key = spare.body.data!;
    const { context, tab } = await signedIn(['MANAGE_CREDENTIALS']);
    await tab.page.goto(`${api.baseUrl}/dashboard/credentials`);
    await tab.page
      .getByRole('button', { name: 'Revoke' })
      .and(tab.page.locator(`form[action$="${key.id}/revoke"] button`))
      .click();
    await tab.page.waitForURL(/revoked=api-key/);
    await expect(tab.page.getByRole('status').textContent()).resolves.toContain('The API key is revoked');
    await checkPage(tab, 'credentials-revoked', 'none');
    const [row] = await api.rows<{ revoked_at: Date | null }>(
      'SELECT revoked_at FROM api_keys WHERE id = $1',
      [key.id],
    );
    expect(row!.revoked_at).not.toBeNull();
    const audit = await api.rows(
      "SELECT 1 FROM audit_log WHERE action = 'api-key.revoke' AND actor LIKE 'dashboard session %'",
    );
    expect(audit).toHaveLength(1);
    const signed = signedRequestHeaders(
      { path: '/api/v1/org/', body: '' },
      { apiKey: key.apiKey, apiSecret: key.apiSecret },
    );
    const refused = await api.request('GET', '/api/v1/org/', { headers: signed });
    expect(refused.status).toBe(401);
    expect(refused.body.error).toContain('unknown or revoked X-API-KEY');
    await context.close();
  });

  it('works by keyboard: skip link, sections, search', async () => {
    const { context, tab } = await signedIn([]);
    const { page } = tab;
    await page.keyboard.press('Tab');
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe('Skip to content');
    await page.keyboard.press('Enter');
    await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe('main');
    await page.goto(`${api.baseUrl}/dashboard/`);
    // Tab to the Users section and open it with Enter.
    for (let presses = 0; presses < 20; presses++) {
      await page.keyboard.press('Tab');
      if ((await page.evaluate(() => document.activeElement?.textContent)) === 'Users') break;
    }
    await page.keyboard.press('Enter');
    await page.waitForURL(`${api.baseUrl}/dashboard/users`);
    await page.keyboard.press('Tab');
    // The search box takes text and Enter submits the form.
    await page.getByRole('searchbox').focus();
    await page.keyboard.type('demo-tr');
    await page.keyboard.press('Enter');
    await page.waitForURL(/q=demo-tr/);
    await expect(page.locator('tbody').textContent()).resolves.toContain(data.trader);
    const outline = await page.evaluate(() => {
      const link = document.querySelector('tbody a') as HTMLElement;
      link.focus();
      return getComputedStyle(link).outlineStyle;
    });
    expect(outline).toBe('solid');
    await context.close();
  });

  it('reads at 375 px wide: no page scrolls sideways, lists are cards in view, pages stay accessible', async () => {
    const { context, tab } = await signedIn(ALL_PERMISSIONS, 375);
    for (const [path, name] of [
      ['/dashboard/', 'mobile-overview'],
      ['/dashboard/events', 'mobile-events'],
      [`/dashboard/events/${data.eventId}`, 'mobile-event'],
      ['/dashboard/users', 'mobile-users'],
      [`/dashboard/users/${data.applicant}`, 'mobile-user'],
      ['/dashboard/orders', 'mobile-orders'],
      [`/dashboard/orders/${data.orderId}`, 'mobile-order'],
      ['/dashboard/webhook', 'mobile-webhook'],
      ['/dashboard/credentials', 'mobile-credentials'],
      ['/dashboard/catalogue', 'mobile-catalogue'],
    ] as const) {
      await tab.page.goto(`${api.baseUrl}${path}`);
      // Every table cell (a list's status and time among them) is within the screen, not off to the side.
      expect([path, await sidewaysReading(tab.page)]).toEqual([path, { pageScrolls: false, cut: [] }]);
      await checkPage(tab, name, name === 'mobile-overview' || name === 'mobile-webhook' ? 'page' : 'none');
    }
    await context.close();
  });
});
