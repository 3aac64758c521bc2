// A real browser for the tests of the api's web areas (the dashboard; the operator console): Chromium from
// the npm package @sparticuz/chromium (its binary ships inside the package, so a machine with only Node and
// npm runs it), driven by playwright-core, with axe-core for accessibility and a record of the
// Content-Security-Policy violations each page reports. One browser per test file.
import { mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import chromium from '@sparticuz/chromium';
import { type Browser, type BrowserContext, chromium as playwright, type Page } from 'playwright-core';

/**
 * Flags of @sparticuz/chromium we drop: two would switch off the very checks the tests make, and one
 * process for everything (made for AWS Lambda) crashes when a browser context closes.
 */
const DROPPED_FLAGS = new Set([
  '--disable-web-security',
  '--allow-running-insecure-content',
  '--single-process',
]);

/** How many times a Chromium that died while starting is started. */
const LAUNCH_ATTEMPTS = 3;

/** Where `SCREENSHOTS=<dir>` asks the tests to save a screenshot of each page; unset in normal runs. */
export const SCREENSHOT_DIR = process.env.SCREENSHOTS;

export interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly nodes: readonly { target: unknown; html: string }[];
}

/** A page with what it reported: console errors (CSP violations among them) and uncaught errors. */
export interface WatchedPage {
  readonly page: Page;
  readonly consoleErrors: string[];
}

export class BrowserHarness {
  private constructor(private readonly browser: Browser) {}

  /**
   * Starts Chromium; the first start in a machine unpacks it to the temporary folder (a few seconds). A
   * Chromium that dies while starting (seen once in a full run on the loaded 2-core machine: SIGSEGV before
   * its first page, the test file's every test failing with it) is started again, up to three times: what
   * the tests check starts after the browser runs.
   */
  static async launch(): Promise<BrowserHarness> {
    const executablePath = await unpackChromium();
    for (let attempt = 1; ; attempt++) {
      try {
        const browser = await playwright.launch({
          executablePath,
          args: chromium.args.filter((flag) => !DROPPED_FLAGS.has(flag)),
          headless: true,
        });
        return new BrowserHarness(browser);
      } catch (error) {
        if (attempt >= LAUNCH_ATTEMPTS || !String(error).includes('has been closed')) throw error;
      }
    }
  }

  /**
   * A fresh context (its own cookies), 1280 px wide unless `width` says otherwise, in London's English and
   * UTC unless `timezoneId` names another zone; `javaScriptEnabled: false` is a browser without script.
   */
  async context(
    options: { width?: number; height?: number; timezoneId?: string; javaScriptEnabled?: boolean } = {},
  ): Promise<BrowserContext> {
    return this.browser.newContext({
      viewport: { width: options.width ?? 1280, height: options.height ?? 900 },
      locale: 'en-GB',
      timezoneId: options.timezoneId ?? 'UTC',
      javaScriptEnabled: options.javaScriptEnabled ?? true,
    });
  }

  /** A page in `context` whose console errors and page errors are recorded. */
  async page(context: BrowserContext): Promise<WatchedPage> {
    const page = await context.newPage();
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => consoleErrors.push(`page error: ${error.message}`));
    // A form with data-confirm asks through window.confirm (apps/api/public/web.js): the tests say yes.
    page.on('dialog', (dialog) => void dialog.accept());
    return { page, consoleErrors };
  }

  async close(): Promise<void> {
    await this.browser.close();
  }
}

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Runs axe-core on the page (injected through the DevTools protocol, which the page's CSP does not
 * govern) and answers the serious and critical violations.
 */
export async function seriousAxeViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run: (context: Document) => Promise<{ violations: AxeViolation[] }> } }
    ).axe;
    const result = await axe.run(document);
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((node) => ({ target: node.target, html: node.html })),
    }));
  });
  return violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
}

/** What a person on a narrow screen cannot see without scrolling sideways. */
export interface SidewaysReading {
  /** The page itself scrolls sideways (document.scrollingElement is wider than the window). */
  readonly pageScrolls: boolean;
  /** The text of every table cell or badge in the main region that reaches beyond the window's sides. */
  readonly cut: readonly string[];
}

/** Whether the page, and every table cell and badge on it, fits the window's width. */
export function sidewaysReading(page: Page): Promise<SidewaysReading> {
  return page.evaluate(() => {
    const width = window.innerWidth;
    const cut = [...document.querySelectorAll('main tbody td, main tbody th, main .badge')]
      .filter((element) => {
        const box = element.getBoundingClientRect();
        return box.width > 0 && (box.left < -0.5 || box.right > width + 0.5);
      })
      .map((element) => element.textContent.trim().slice(0, 60));
    return { pageScrolls: (document.scrollingElement?.scrollWidth ?? 0) > width, cut };
  });
}

/**
 * Saves a screenshot as `<SCREENSHOTS>/<name>.png` when the run asked for screenshots (the whole page
 * unless `fullPage` is false).
 */
export async function screenshot(page: Page, name: string, fullPage = true): Promise<void> {
  if (!SCREENSHOT_DIR) return;
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage });
}

/**
 * The unpacked binary's path. @sparticuz/chromium unpacks into the temporary folder unless it is already
 * there; a lock directory keeps two test processes from unpacking over each other.
 */
async function unpackChromium(): Promise<string> {
  const lock = join(tmpdir(), 'svc-chromium-unpack.lock');
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      // A lock older than two minutes belongs to a process that died while unpacking.
      if (Date.now() - lockTime(lock) > 120_000) rmSync(lock, { recursive: true, force: true });
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  try {
    return await chromium.executablePath();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function lockTime(lock: string): number {
  try {
    return statSync(lock).mtimeMs;
  } catch {
    return Date.now();
  }
}
