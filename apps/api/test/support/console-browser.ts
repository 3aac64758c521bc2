// The console in the browser harness: signing an operator in through the sign-in page, and the checks
// every console page passes (axe-core clean, no console error, no sideways scrolling) with its screenshot.
import type { BrowserContext, Page } from 'playwright-core';

import type { ApiFixture } from './app-fixture.js';
import { type BrowserHarness, screenshot, seriousAxeViolations, type WatchedPage } from './browser.js';
import type { EnrolledOperator } from './enrolled-operator.js';

/** A new context (its own cookies) with `operator` signed in on the console's home page. */
export async function consoleSignedIn(
  browser: BrowserHarness,
  api: ApiFixture,
  operator: EnrolledOperator,
  width?: number,
): Promise<{ context: BrowserContext; tab: WatchedPage }> {
  const context = await browser.context(width === undefined ? {} : { width });
  const tab = await browser.page(context);
  await tab.page.goto(`${api.baseUrl}/console/sign-in`);
  await tab.page.getByLabel('E-mail', { exact: true }).fill(operator.email);
  await tab.page.getByLabel('Password', { exact: true }).fill(operator.password);
  await tab.page.getByLabel('Code from your authenticator app').fill(await operator.code());
  await tab.page.getByRole('button', { name: 'Sign in' }).click();
  await tab.page.waitForURL(`${api.baseUrl}/console/`);
  return { context, tab };
}

/**
 * The page is accessible (no serious or critical axe-core violation), fits its width, and reported no
 * console error but the failed status it was answered with (`status`); then its screenshot as `name`.
 */
export async function checkConsolePage(tab: WatchedPage, name: string, status?: number): Promise<void> {
  expect([name, await seriousAxeViolations(tab.page)]).toEqual([name, []]);
  const errors = tab.consoleErrors.filter(
    (error) => status === undefined || !error.includes(`status of ${status} `),
  );
  expect([name, errors]).toEqual([name, []]);
  tab.consoleErrors.length = 0;
  const overflow = await tab.page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
  expect([name, overflow]).toEqual([name, false]);
  await screenshot(tab.page, name);
}

/** The text of the page's main region. */
export function mainText(page: Page): Promise<string> {
  return page.locator('main').innerText();
}
