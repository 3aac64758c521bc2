// Sandbox organisations in a real browser (docs/testing.md): every dashboard page of a sandbox organisation
// says SANDBOX in words at the top (and in the title), a live organisation's pages do not, axe-core clean at
// 1280 and 375 px; and an ADMIN creates a SANDBOX organisation with the console's new-organisation form.
import type { Page } from 'playwright-core';

import { ApiFixture, type OrgSession } from './support/app-fixture.js';
import { BrowserHarness, seriousAxeViolations, type WatchedPage } from './support/browser.js';
import { checkConsolePage, mainText, scrollsSideways, signedIn } from './support/console-browser.js';
import { ALL_PERMISSIONS, signInLink } from './support/dashboard-session.js';
import type { EnrolledOperator } from './support/enrolled-operator.js';

jest.setTimeout(120_000);

const SECTIONS = ['Overview', 'Webhook', 'Events', 'Users', 'Orders', 'API keys', 'Event catalogue'];

describe('sandbox organisations in a browser', () => {
  let api: ApiFixture;
  let browser: BrowserHarness;
  let sandbox: OrgSession;
  let live: OrgSession;

  beforeAll(async () => {
    [api, browser] = await Promise.all([ApiFixture.start(), BrowserHarness.launch()]);
    sandbox = await api.createOrg({ name: 'Test Brokers', environment: 'SANDBOX' });
    live = await api.createOrg({ name: 'Live Brokers' });
  });

  afterAll(async () => {
    await browser.close();
    await api.close();
  });

  /** The sandbox strip at the top of the page: a note in the page's banner. */
  const marker = (page: Page) => page.getByRole('banner').getByRole('note');

  /** Opens a sign-in link of `org` at `width` px; answers the tab on the sign-in page. */
  async function atSignIn(org: OrgSession, width: number): Promise<WatchedPage> {
    const tab = await browser.page(await browser.context({ width }));
    await tab.page.goto(await signInLink(org, { permissions: ALL_PERMISSIONS }));
    return tab;
  }

  async function accessible(tab: WatchedPage, name: string): Promise<void> {
    expect([name, await seriousAxeViolations(tab.page)]).toEqual([name, []]);
    expect([name, tab.consoleErrors]).toEqual([name, []]);
    expect([name, await scrollsSideways(tab.page)]).toEqual([name, false]);
  }

  it.each([1280, 375])('marks every dashboard page of a sandbox organisation, at %i px', async (width) => {
    const tab = await atSignIn(sandbox, width);
    const { page } = tab;
    await expect(marker(page).textContent()).resolves.toMatch(/^SANDBOX · a test organisation/);
    await accessible(tab, `sign-in at ${width}`);
    await page.getByRole('button', { name: 'Continue to the dashboard' }).click();
    await page.waitForURL(`${api.baseUrl}/dashboard/`);
    for (const section of SECTIONS) {
      await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: section }).click();
      await page.waitForLoadState();
      await expect(marker(page).isVisible()).resolves.toBe(true);
      await expect(marker(page).textContent()).resolves.toContain('SANDBOX');
      await expect(page.title()).resolves.toMatch(/^SANDBOX · /);
      await accessible(tab, `${section} at ${width}`);
    }
    // Text in the page, not only a colour: what a screen reader reads out first in the banner.
    await expect(page.getByRole('banner').innerText()).resolves.toMatch(/^SANDBOX/);
    await tab.page.context().close();
  });

  it.each([1280, 375])("shows no marker on a live organisation's pages, at %i px", async (width) => {
    const tab = await atSignIn(live, width);
    const { page } = tab;
    await expect(marker(page).count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'Continue to the dashboard' }).click();
    await page.waitForURL(`${api.baseUrl}/dashboard/`);
    for (const section of SECTIONS) {
      await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: section }).click();
      await page.waitForLoadState();
      await expect(marker(page).count()).resolves.toBe(0);
      await expect(page.title()).resolves.not.toContain('SANDBOX');
      await expect(page.locator('body').innerText()).resolves.not.toContain('SANDBOX');
      await accessible(tab, `live ${section} at ${width}`);
    }
    await tab.page.context().close();
  });

  describe('the console', () => {
    let admin: EnrolledOperator;

    beforeAll(async () => {
      admin = await api.enrolOperator('ADMIN', 'ada@ops.test');
    });

    it('creates a SANDBOX organisation with the new-organisation form', async () => {
      const { context, tab } = await signedIn(browser, api, admin);
      const { page } = tab;
      await page
        .getByRole('navigation', { name: 'Sections' })
        .getByRole('link', { name: 'Organisations' })
        .click();
      await page.getByRole('link', { name: 'New organisation' }).click();
      await checkConsolePage(tab, 'org-new-sandbox');
      const environment = page.getByRole('combobox', { name: /^Environment/ });
      await expect(environment.inputValue()).resolves.toBe('LIVE');
      await page.getByLabel('Name', { exact: true }).fill('Sandbox Trading');
      await page.getByRole('textbox', { name: /^KYC domain/ }).fill('sandbox.example');
      await page.getByRole('combobox', { name: /^Plan/ }).selectOption('STANDARD');
      await environment.selectOption('SANDBOX');
      await page.getByRole('button', { name: 'Create the organisation' }).click();
      await page.waitForURL(/\/console\/orgs\/\d+\?done=created$/);
      const orgId = Number(/orgs\/(\d+)/.exec(page.url())![1]);

      expect(
        await api.rows('SELECT name, kyc_domain, plan, environment FROM organisations WHERE id = $1', [
          orgId,
        ]),
      ).toEqual([
        { name: 'Sandbox Trading', kyc_domain: 'sandbox.example', plan: 'STANDARD', environment: 'SANDBOX' },
      ]);
      const [audited] = await api.rows<{ details: Record<string, unknown> }>(
        "SELECT details FROM audit_log WHERE action = 'org.create' AND org_id = $1",
        [orgId],
      );
      expect(audited?.details).toMatchObject({ environment: 'SANDBOX' });
      const text = await mainText(page);
      expect(text).toContain('SANDBOX: a test organisation');
      expect(text).toMatch(/Environment\s*SANDBOX/);
      await checkConsolePage(tab, 'org-sandbox');
      await context.close();
    });
  });
});
