// The operator console in a real browser (issue 14, points 4 and 5): Chromium from @sparticuz/chromium
// driven by playwright-core, against the real api on the embedded PostgreSQL. Signing in with password and
// TOTP (codes from otplib, as an authenticator app makes them), the refusals shown on the page, the way
// back after signing in, sign-out; every page accessible (axe-core), under the CSP, at 375 px and by
// keyboard. SCREENSHOTS=<dir> saves a picture of each page (scripts/console-screenshots.mjs).
import type { BrowserContext, Page } from 'playwright-core';

import { ApiFixture } from './support/app-fixture.js';
import { BrowserHarness, screenshot, seriousAxeViolations, type WatchedPage } from './support/browser.js';
import type { EnrolledOperator } from './support/enrolled-operator.js';

jest.setTimeout(90_000);

describe('the operator console in a browser', () => {
  let api: ApiFixture;
  let browser: BrowserHarness;
  let admin: EnrolledOperator;

  beforeAll(async () => {
    [api, browser] = await Promise.all([ApiFixture.start(), BrowserHarness.launch()]);
    admin = await api.enrolOperator('ADMIN', 'console-admin@ops.test');
  });

  afterAll(async () => {
    await browser.close();
    await api.close();
  });

  const heading = (page: Page) => page.getByRole('heading', { level: 1 }).textContent();

  /**
   * The page is accessible and reported no console error but the failed status it was answered with
   * (`status`: Chromium reports a page answered 4xx as a failed load).
   */
  async function checkPage(tab: WatchedPage, name: string, status?: number): Promise<void> {
    expect([name, await seriousAxeViolations(tab.page)]).toEqual([name, []]);
    const errors = tab.consoleErrors.filter(
      (error) => status === undefined || !error.includes(`status of ${status} `),
    );
    expect([name, errors]).toEqual([name, []]);
    tab.consoleErrors.length = 0;
    await screenshot(tab.page, name);
  }

  /** Fills in and sends the sign-in form on the page `tab` shows. */
  async function fillSignIn(page: Page, operator: EnrolledOperator, code?: string): Promise<void> {
    await page.getByLabel('E-mail', { exact: true }).fill(operator.email);
    await page.getByLabel('Password', { exact: true }).fill(operator.password);
    await page.getByLabel('Code from your authenticator app').fill(code ?? (await operator.code()));
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  async function signedIn(
    operator: EnrolledOperator,
    width?: number,
  ): Promise<{ context: BrowserContext; tab: WatchedPage }> {
    const context = await browser.context(width === undefined ? {} : { width });
    const tab = await browser.page(context);
    await tab.page.goto(`${api.baseUrl}/console/sign-in`);
    await fillSignIn(tab.page, operator);
    await tab.page.waitForURL(`${api.baseUrl}/console/`);
    return { context, tab };
  }

  it('signs in with password and TOTP, shows who and which role, and signs out', async () => {
    const context = await browser.context();
    const tab = await browser.page(context);
    // Not signed in: the console sends the browser to sign in.
    await tab.page.goto(`${api.baseUrl}/console/`);
    expect(tab.page.url()).toBe(`${api.baseUrl}/console/sign-in`);
    await expect(heading(tab.page)).resolves.toBe('Sign in');
    await checkPage(tab, 'sign-in');

    await fillSignIn(tab.page, admin);
    await tab.page.waitForURL(`${api.baseUrl}/console/`);
    await expect(heading(tab.page)).resolves.toBe('Operator console');
    await expect(tab.page.locator('header').textContent()).resolves.toContain(
      'console-admin@ops.test · ADMIN',
    );
    await expect(tab.page.locator('main').textContent()).resolves.toContain('no code needed until');
    const [cookie] = await context.cookies();
    expect(cookie).toMatchObject({
      name: 'svc_operator_session',
      httpOnly: true,
      sameSite: 'Strict',
      path: '/',
    });
    await checkPage(tab, 'home');
    const audit = await api.rows<{ action: string; actor: string }>(
      "SELECT action, actor FROM audit_log WHERE action = 'operator.sign-in' ORDER BY created_at DESC LIMIT 1",
    );
    expect(audit).toEqual([{ action: 'operator.sign-in', actor: 'console-admin@ops.test' }]);

    await tab.page.getByRole('button', { name: 'Sign out' }).click();
    await tab.page.waitForURL(`${api.baseUrl}/console/signed-out`);
    await expect(tab.page.locator('main').textContent()).resolves.toContain(
      'You are signed out of the console',
    );
    expect(await context.cookies()).toEqual([]);
    await tab.page.goto(`${api.baseUrl}/console/`);
    expect(tab.page.url()).toBe(`${api.baseUrl}/console/sign-in`);
    await context.close();
  });

  it('shows a wrong code, a wrong password and bad fields on the page, and keeps the way back', async () => {
    const context = await browser.context();
    const tab = await browser.page(context);
    await tab.page.goto(`${api.baseUrl}/console/?from=link`);
    // The home page is the default: only another page is carried in `next`.
    expect(tab.page.url()).toBe(`${api.baseUrl}/console/sign-in`);
    await tab.page.goto(`${api.baseUrl}/console/sign-in?next=${encodeURIComponent('https://evil.test/')}`);
    await expect(tab.page.locator('input[name="next"]').inputValue()).resolves.toBe('/console/');

    const wrong = tab.page.waitForResponse((response) => response.request().method() === 'POST');
    await fillSignIn(tab.page, admin, '000000');
    expect((await wrong).status()).toBe(401);
    await expect(tab.page.getByRole('alert').textContent()).resolves.toBe(
      'The e-mail, password or code is wrong.',
    );
    await expect(tab.page.getByLabel('E-mail', { exact: true }).inputValue()).resolves.toBe(admin.email);
    await checkPage(tab, 'sign-in-refused', 401);

    await tab.page.getByLabel('Password', { exact: true }).fill(admin.password);
    // A code of letters passes the browser's pattern only without it: the server names the rule.
    await tab.page
      .getByLabel('Code from your authenticator app')
      .evaluate((input) => input.removeAttribute('pattern'));
    await tab.page.getByLabel('Code from your authenticator app').fill('abcdef');
    await tab.page.getByRole('button', { name: 'Sign in' }).click();
    await expect(tab.page.getByRole('alert').textContent()).resolves.toMatch(/code must be/);
    expect(await context.cookies()).toEqual([]);
    await context.close();
  });

  it('refuses a sign-in form sent from another site', async () => {
    const response = await fetch(`${api.baseUrl}/console/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.test' },
      body: new URLSearchParams({ email: admin.email, password: admin.password, code: await admin.code() }),
    });
    expect(response.status).toBe(403);
    expect(response.headers.get('set-cookie')).toBeNull();
  });

  it('works by keyboard and reads at 375 px', async () => {
    const { context, tab } = await signedIn(admin, 375);
    await tab.page.keyboard.press('Tab');
    await expect(tab.page.evaluate(() => document.activeElement?.textContent)).resolves.toBe(
      'Skip to content',
    );
    const overflow = await tab.page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    expect(overflow).toBe(false);
    await checkPage(tab, 'mobile-home');
    await context.close();
  });
});
