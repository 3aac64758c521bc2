// Test support for the operator console in a browser: signing an enrolled operator in through the page,
// and checking a page as every console test does.
import { crc32, deflateSync } from 'node:zlib';

import type { BrowserContext, Page } from 'playwright-core';

import type { ApiFixture } from './app-fixture.js';
import {
  type BrowserHarness,
  screenshot,
  seriousAxeViolations,
  sidewaysReading,
  type WatchedPage,
} from './browser.js';
import type { EnrolledOperator } from './enrolled-operator.js';

/** Fills in and sends the sign-in form the page shows. */
export async function fillSignIn(page: Page, operator: EnrolledOperator, code?: string): Promise<void> {
  await page.getByLabel('E-mail', { exact: true }).fill(operator.email);
  await page.getByLabel('Password', { exact: true }).fill(operator.password);
  await page.getByLabel('Code from your authenticator app').fill(code ?? (await operator.code()));
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** A new browser context (the person's own browser) signed in to the console as `operator`. */
export async function signedIn(
  browser: BrowserHarness,
  api: ApiFixture,
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

/**
 * The page is accessible (no serious or critical axe violation) and reported no console error but the
 * failed status it was answered with (`status`: Chromium reports a page answered 4xx as a failed load);
 * `name` is its picture's name when SCREENSHOTS is set.
 */
export async function checkPage(tab: WatchedPage, name: string, status?: number): Promise<void> {
  expect([name, await seriousAxeViolations(tab.page)]).toEqual([name, []]);
  const errors = tab.consoleErrors.filter(
    (error) => status === undefined || !error.includes(`status of ${status} `),
  );
  expect([name, errors]).toEqual([name, []]);
  tab.consoleErrors.length = 0;
  await screenshot(tab.page, name);
}

/** Whether the page scrolls sideways (it must not, at 375 px). */
export function scrollsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
}

/** A real PNG of `width` x `height` pixels of one colour, for a document an <img> shows. */
export function pngImage(width: number, height: number, rgb: readonly [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, Buffer.from(rgb))]);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * checkPage, with the page fitting its width: no sideways scrolling, and every table cell and badge (a
 * list's status) within the window.
 */
export async function checkConsolePage(tab: WatchedPage, name: string, status?: number): Promise<void> {
  expect([name, await sidewaysReading(tab.page)]).toEqual([name, { pageScrolls: false, cut: [] }]);
  await checkPage(tab, name, status);
}

/** The text of the page's main region. */
export function mainText(page: Page): Promise<string> {
  return page.locator('main').innerText();
}
