// The operator console in a real browser (docs/console.md): Chromium from @sparticuz/chromium
// driven by playwright-core, against the real api on the embedded PostgreSQL. Signing in with password and
// TOTP (codes from otplib, as an authenticator app makes them), the refusals shown on the page, the way
// back after signing in, sign-out; every page accessible (axe-core), under the CSP, at 375 px and by
// keyboard. SCREENSHOTS=<dir> saves a picture of each page (scripts/console-screenshots.mjs).
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { Page } from 'playwright-core';

import { ApiFixture } from './support/app-fixture.js';
import { BrowserHarness } from './support/browser.js';
import { ConsoleStepUpModule, sensitiveActions } from './support/console-step-up.module.js';
import { checkPage, fillSignIn, scrollsSideways, signedIn } from './support/console-browser.js';
import type { EnrolledOperator } from './support/enrolled-operator.js';
import { freePort, type OidcPerson, startOidcProvider, TEST_CLIENT } from './support/oidc-provider.js';

jest.setTimeout(90_000);

describe('the operator console in a browser', () => {
  let api: ApiFixture;
  let browser: BrowserHarness;
  let admin: EnrolledOperator;
  let idp: { issuer: string; close: () => void };
  let person: OidcPerson = { email: 'nobody@ops.test', emailVerified: false };

  beforeAll(async () => {
    // Single sign-on: the provider on another site than the api (localhost and 127.0.0.1), as in life.
    const port = await freePort();
    const redirectUri = `http://127.0.0.1:${port}/api/v1/admin/sign-in/oidc/callback`;
    idp = await startOidcProvider(redirectUri, () => person, 'localhost');
    [api, browser] = await Promise.all([
      ApiFixture.start(
        {
          PORT: String(port),
          OIDC_ISSUER: idp.issuer,
          OIDC_CLIENT_ID: TEST_CLIENT.id,
          OIDC_CLIENT_SECRET: TEST_CLIENT.secret,
          OIDC_REDIRECT_URI: redirectUri,
        },
        { port, testModules: [ConsoleStepUpModule] },
      ),
      BrowserHarness.launch(),
    ]);
    admin = await api.enrolOperator('ADMIN', 'console-admin@ops.test');
  });

  afterAll(async () => {
    await browser.close();
    await api.close();
    idp.close();
  });

  const heading = (page: Page) => page.getByRole('heading', { level: 1 }).textContent();

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

  it('signs in with single sign-on and lands signed in on the console, though the cookie is Strict', async () => {
    await api.createOperator('SUPPORT', { email: 'sso-person@ops.test' });
    person = { email: 'sso-person@ops.test', emailVerified: true };
    const context = await browser.context();
    const tab = await browser.page(context);
    await tab.page.goto(`${api.baseUrl}/console/sign-in`);
    await tab.page.getByRole('link', { name: 'Sign in with single sign-on' }).click();
    await tab.page.getByRole('heading', { level: 1, name: 'Operator console' }).waitFor();
    expect(tab.page.url()).toBe(`${api.baseUrl}/console/`);
    await expect(tab.page.locator('header').textContent()).resolves.toContain(
      'sso-person@ops.test · SUPPORT',
    );
    // Not stepped up: single sign-on is not our second factor.
    await expect(tab.page.locator('main').textContent()).resolves.toContain(
      'ask for a code from your authenticator app',
    );
    const [cookie] = (await context.cookies(api.baseUrl)).filter((c) => c.name === 'svc_operator_session');
    expect(cookie).toMatchObject({ sameSite: 'Strict', httpOnly: true });
    await context.close();
  });

  it('opens a console page linked from another site signed in, though the cookie is Strict', async () => {
    // Another site (localhost is not 127.0.0.1's site) with a link into the console, as a chat would have.
    const target = `${api.baseUrl}/console/?from=chat`;
    const elsewhere = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<!doctype html><title>Chat</title><a href="${target}">the console</a>`);
    }).listen(0, '127.0.0.1');
    await once(elsewhere, 'listening');
    const chat = `http://localhost:${(elsewhere.address() as AddressInfo).port}/`;
    try {
      for (const signedInFirst of [true, false]) {
        const context = signedInFirst
          ? (await signedIn(browser, api, admin)).context
          : await browser.context();
        const tab = await browser.page(context);
        const landings: { status: number; reloads: boolean; cookie: boolean }[] = [];
        tab.page.on('response', (response) => {
          if (!response.url().startsWith(target)) return;
          // From the headers, read now: the page's body may be gone once it has reloaded.
          const status = response.status();
          const reloads =
            response.headers().refresh === `0; url=${new URL(target).pathname}${new URL(target).search}`;
          void (async () => {
            const headers = await response.request().allHeaders();
            landings.push({
              status,
              reloads,
              cookie: (headers.cookie ?? '').includes('svc_operator_session'),
            });
          })();
        });
        await tab.page.goto(chat);
        await tab.page.getByRole('link', { name: 'the console' }).click();
        await tab.page.getByRole('heading', { level: 1 }).waitFor();
        if (signedInFirst) {
          // The cross-site arrival came without the cookie: the page that reloads, then the console with it.
          await expect(heading(tab.page)).resolves.toBe('Operator console');
          expect(tab.page.url()).toBe(target);
          expect(landings).toEqual([
            { status: 200, reloads: true, cookie: false },
            { status: 200, reloads: false, cookie: true },
          ]);
        } else {
          // Without a session the reload goes on to sign in (the home page is where it returns): no loop.
          await tab.page.waitForURL(`${api.baseUrl}/console/sign-in`);
          await expect(heading(tab.page)).resolves.toBe('Sign in');
        }
        await context.close();
      }
    } finally {
      elsewhere.close();
    }
  });

  it('asks a session that is not stepped up for a code on a sensitive form, and acts only with a good one', async () => {
    const { context, tab } = await signedIn(browser, api, admin);
    const url = `${api.baseUrl}/console/test-step-up`;
    // Just signed in: the sign-in's code counts, no field is asked for.
    await tab.page.goto(url);
    await expect(tab.page.locator('main').textContent()).resolves.toContain('No code needed');
    // The step-up window has passed.
    await api.rows(
      "UPDATE operator_sessions SET second_factor_at = now() - interval '1 day' WHERE operator_id = $1",
      [admin.id],
    );
    await tab.page.goto(url);
    const field = tab.page.getByLabel(/Code from your authenticator app/);
    await checkPage(tab, 'step-up', undefined);
    // Without a code (the browser's own check taken away): refused, not done.
    await field.evaluate((input) => input.removeAttribute('required'));
    const without = tab.page.waitForResponse((response) => response.request().method() === 'POST');
    await tab.page.getByRole('button', { name: 'Do it' }).click();
    expect((await without).status()).toBe(403);
    await expect(tab.page.locator('main').textContent()).resolves.toContain('step_up_required');
    // A wrong code: refused, not done.
    await tab.page.goto(url);
    await field.fill('000000');
    await tab.page.getByRole('button', { name: 'Do it' }).click();
    await expect(tab.page.locator('main').textContent()).resolves.toContain('code: the code is wrong');
    expect(sensitiveActions.count).toBe(0);
    // A good code steps the session up and the action runs; the next form needs none.
    await tab.page.goto(url);
    await field.fill(await admin.code());
    await tab.page.getByRole('button', { name: 'Do it' }).click();
    await expect(tab.page.getByRole('status').textContent()).resolves.toBe('Done.');
    expect(sensitiveActions.count).toBe(1);
    await tab.page.goto(url);
    await expect(tab.page.locator('main').textContent()).resolves.toContain('No code needed');
    await context.close();
  });

  it('answers throttling as a page that says when to try again', async () => {
    const person = await api.enrolOperator('SUPPORT', 'throttled@ops.test');
    const context = await browser.context();
    const tab = await browser.page(context);
    await tab.page.goto(`${api.baseUrl}/console/sign-in`);
    // The account's failures reach the limit (SIGN_IN_ACCOUNT_LIMIT, 5): then even the right code is refused.
    for (let attempt = 0; attempt < 5; attempt++) await fillSignIn(tab.page, person, '000000');
    const refused = tab.page.waitForResponse((response) => response.request().method() === 'POST');
    await fillSignIn(tab.page, person);
    const answer = await refused;
    expect(answer.status()).toBe(429);
    expect(Number(answer.headers()['retry-after'])).toBeGreaterThan(0);
    await expect(tab.page.getByRole('alert').textContent()).resolves.toMatch(
      /^Too many sign-in attempts: try again in \d+ seconds\.$/,
    );
    // The five refusals were 401 pages; the last a 429.
    expect(tab.consoleErrors.splice(0, 5).every((error) => error.includes('status of 401 '))).toBe(true);
    await checkPage(tab, 'sign-in-throttled', 429);
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
    const { context, tab } = await signedIn(browser, api, admin, 375);
    await tab.page.keyboard.press('Tab');
    await expect(tab.page.evaluate(() => document.activeElement?.textContent)).resolves.toBe(
      'Skip to content',
    );
    await expect(scrollsSideways(tab.page)).resolves.toBe(false);
    await checkPage(tab, 'mobile-home');
    await context.close();
  });
});
