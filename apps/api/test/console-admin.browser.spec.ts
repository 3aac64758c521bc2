// The console's administration sections in a real browser (docs/console.md#the-administration-sections):
// Chromium driven by playwright-core against the real api on the embedded PostgreSQL. An ADMIN creates an
// organisation, changes its plan and support e-mails, previews and saves a policy change (and its Actions
// events are written), issues and revokes credentials (a secret shown once), sets a price (a bad one named on
// the page), publishes a notice that halts a pair, reads webhook health and the audit log, creates an
// operator (setup token shown once), changes their role and disables them; a SUPPORT operator is refused the
// operators page. Every page axe-core clean, within 375 px, usable by keyboard. SCREENSHOTS=<dir> saves each
// page's picture (docs/console/).
import type { Page } from 'playwright-core';

import { ApiFixture } from './support/app-fixture.js';
import { BrowserHarness } from './support/browser.js';
import { checkConsolePage, signedIn, mainText } from './support/console-browser.js';
import type { EnrolledOperator } from './support/enrolled-operator.js';

jest.setTimeout(120_000);

describe('the console administration in a browser', () => {
  let api: ApiFixture;
  let browser: BrowserHarness;
  let admin: EnrolledOperator;

  beforeAll(async () => {
    [api, browser] = await Promise.all([ApiFixture.start(), BrowserHarness.launch()]);
    admin = await api.enrolOperator('ADMIN', 'ada@ops.test');
  });

  afterAll(async () => {
    await browser.close();
    await api.close();
  });

  /** The link to a section in the navigation. */
  const section = (page: Page, name: string) =>
    page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name });

  const audit = (action: string) =>
    api.rows<{ actor: string; org_id: number | null; details: Record<string, unknown> }>(
      'SELECT actor, org_id, details FROM audit_log WHERE action = $1 ORDER BY id',
      [action],
    );

  it('creates an organisation, changes it and its policy, and issues and revokes its credentials', async () => {
    const { context, tab } = await signedIn(browser, api, admin);
    const { page } = tab;
    await section(page, 'Organisations').click();
    await page.getByRole('link', { name: 'New organisation' }).click();
    await checkConsolePage(tab, 'org-new');
    await page.getByLabel('Name', { exact: true }).fill('Acme Trading');
    await page.getByRole('textbox', { name: /^KYC domain/ }).fill('Acme.example');
    await page.getByRole('combobox', { name: /^Plan/ }).selectOption('STANDARD');
    await page.getByRole('textbox', { name: /^Support e-mails/ }).fill('ops@acme.example\nfx@acme.example');
    await page.getByRole('button', { name: 'Create the organisation' }).click();
    await page.waitForURL(/\/console\/orgs\/\d+\?done=created$/);
    const orgId = Number(/orgs\/(\d+)/.exec(page.url())![1]);
    await expect(mainText(page)).resolves.toContain('The organisation is created.');
    expect(
      await api.rows('SELECT name, kyc_domain, plan, support_emails FROM organisations WHERE id = $1', [
        orgId,
      ]),
    ).toEqual([
      {
        name: 'Acme Trading',
        kyc_domain: 'acme.example',
        plan: 'STANDARD',
        support_emails: ['ops@acme.example', 'fx@acme.example'],
      },
    ]);
    expect((await audit('org.create')).at(-1)).toMatchObject({ actor: 'ada@ops.test', org_id: orgId });

    // Plan and support e-mails.
    await page.getByRole('combobox', { name: /^Plan/ }).selectOption('ENTERPRISE');
    await page.getByRole('textbox', { name: /^Support e-mails/ }).fill('ops@acme.example');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL(/done=updated$/);
    expect(await api.rows('SELECT plan, support_emails FROM organisations WHERE id = $1', [orgId])).toEqual([
      { plan: 'ENTERPRISE', support_emails: ['ops@acme.example'] },
    ]);
    expect((await audit('org.update')).at(-1)).toMatchObject({ actor: 'ada@ops.test', org_id: orgId });

    // A bad support e-mail is named on the page, and nothing changes.
    await page.getByRole('textbox', { name: /^Support e-mails/ }).fill('not an address');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByRole('alert').innerText()).resolves.toContain(
      'supportEmails must hold e-mail addresses',
    );
    await checkConsolePage(tab, 'org-bad-input', 400);
    await page.goBack();

    // The policy: the form says which event each field causes; the preview lists them before saving.
    await page.goto(`${api.baseUrl}/console/orgs/${orgId}`);
    await checkConsolePage(tab, 'org');
    await page.getByRole('textbox', { name: /^Quote limit/ }).fill('EUR 5000.5\nUSD 100');
    await page.getByRole('textbox', { name: /^Enabled assets/ }).fill('BTC, EUR');
    await page.getByRole('button', { name: 'Preview the change' }).click();
    await expect(mainText(page)).resolves.toContain('Nothing is saved yet.');
    await expect(mainText(page)).resolves.toContain('Actions QUOTE_LIMIT');
    await expect(mainText(page)).resolves.toContain('Actions ASSET_ENABLE');
    expect(await api.rows("SELECT id FROM events WHERE org_id = $1 AND entity = 'Actions'", [orgId])).toEqual(
      [],
    );
    await checkConsolePage(tab, 'org-policy-preview');
    await page.getByRole('button', { name: 'Save the policy and send the events' }).click();
    await page.waitForURL(/done=policy$/);
    const events = await api.rows<{ data: { name: string; newValues: Record<string, number> } }>(
      "SELECT data FROM events WHERE org_id = $1 AND entity = 'Actions' ORDER BY position",
      [orgId],
    );
    expect(events.map((event) => event.data)).toEqual([
      { name: 'QUOTE_LIMIT', newValues: { EUR: 5000.5, USD: 100 } },
      expect.objectContaining({ name: 'ASSET_ENABLE' }),
    ]);
    expect((await audit('org.policy')).at(-1)).toMatchObject({ actor: 'ada@ops.test', org_id: orgId });

    // An API key: its secret on the answer page once, never on the organisation's page.
    await page
      .getByRole('form', { name: 'Issue an API key' })
      .getByRole('textbox', { name: /^Label/ })
      .fill('settlement');
    await page.getByRole('button', { name: 'Issue an API key' }).click();
    await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe('API key issued');
    const secret = await page.locator('code.secret').innerText();
    expect(secret).toMatch(/^sk_/);
    await checkConsolePage(tab, 'api-key-issued');
    const [key] = await api.rows<{ id: string; secret_hash: string }>(
      "SELECT * FROM api_keys WHERE org_id = $1 AND label = 'settlement'",
      [orgId],
    );
    expect(JSON.stringify(key)).not.toContain(secret);
    await page.getByRole('link', { name: 'Back to the organisation' }).click();
    expect(await page.content()).not.toContain(secret);
    await page.getByRole('button', { name: 'Revoke' }).first().click();
    await page.waitForURL(/done=api-key-revoked$/);
    expect(
      await api.rows('SELECT revoked_at IS NOT NULL AS revoked FROM api_keys WHERE id = $1', [key!.id]),
    ).toEqual([{ revoked: true }]);
    expect((await audit('api-key.revoke')).at(-1)).toMatchObject({ actor: 'ada@ops.test', org_id: orgId });

    // An OAuth client.
    await page.getByRole('textbox', { name: /^Scopes/ }).fill('BASE_MODULE:READ');
    await page.getByRole('button', { name: 'Issue an OAuth client' }).click();
    await expect(page.locator('code.secret').innerText()).resolves.toMatch(/^cs_/);
    expect(await api.rows('SELECT scopes FROM oauth_clients WHERE org_id = $1', [orgId])).toEqual([
      { scopes: ['BASE_MODULE:READ'] },
    ]);

    // The list finds it by part of its name, and an id goes straight to its page.
    await page.goto(`${api.baseUrl}/console/orgs`);
    await page.getByRole('searchbox').fill('acme');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page.getByRole('link', { name: 'Acme Trading' }).count()).resolves.toBe(1);
    await checkConsolePage(tab, 'orgs');
    await context.close();
  });

  it('sets a price with its exact digits, naming a bad one, and publishes a notice that halts a pair', async () => {
    const { context, tab } = await signedIn(browser, api, admin);
    const { page } = tab;
    await page.goto(`${api.baseUrl}/console/prices`);
    await page.getByRole('textbox', { name: /^Symbol/ }).fill('BTC_EUR');
    await page.getByRole('textbox', { name: /^Price/ }).fill('1.123456789');
    await page.getByRole('button', { name: 'Set the price' }).click();
    await expect(page.getByRole('alert').innerText()).resolves.toContain(
      'price must be a number greater than 0 with at most 8 decimals',
    );
    expect(await api.rows("SELECT price FROM prices WHERE symbol = 'BTC_EUR'")).toEqual([]);
    await checkConsolePage(tab, 'price-bad-input', 400);
    await page.goto(`${api.baseUrl}/console/prices`);
    await page.getByRole('textbox', { name: /^Symbol/ }).fill('btc_eur');
    await page.getByRole('textbox', { name: /^Price/ }).fill('123456789012.12345678');
    await page.getByRole('button', { name: 'Set the price' }).click();
    await page.waitForURL(/done=set/);
    // Grouped with its currency, every digit kept; the exact stored value in the element's value.
    await expect(page.locator('#price-BTC_EUR').innerText()).resolves.toContain(
      '123,456,789,012.12345678 EUR',
    );
    await expect(page.locator('#price-BTC_EUR data').getAttribute('value')).resolves.toBe(
      '123456789012.12345678',
    );
    expect(await api.rows("SELECT price FROM prices WHERE symbol = 'BTC_EUR'")).toEqual([
      { price: '123456789012.12345678' },
    ]);
    expect((await audit('price.set')).at(-1)).toMatchObject({ actor: 'ada@ops.test' });
    await checkConsolePage(tab, 'prices');

    await section(page, 'Notices').click();
    await page.getByRole('combobox', { name: /^Kind/ }).selectOption('ASSET_DISABLE');
    await page.getByRole('textbox', { name: /^About/ }).fill('btc_eur');
    await page.getByRole('textbox', { name: /^Message/ }).fill('BTC_EUR is halted for an upgrade');
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.waitForURL(/done=published/);
    const halts = page.getByRole('region', {
      name: 'Pairs halted by an ASSET_DISABLE notice, not yet ended',
    });
    await expect(halts.innerText()).resolves.toContain('BTC_EUR');
    expect(await api.rows('SELECT symbol, ends_at FROM trading_halts')).toEqual([
      { symbol: 'BTC_EUR', ends_at: null },
    ]);
    expect((await audit('notice.publish')).at(-1)).toMatchObject({ actor: 'ada@ops.test' });
    await checkConsolePage(tab, 'notices');
    await context.close();
  });

  it('shows unhealthy webhook endpoints and FAILED events across organisations, and the audit log', async () => {
    const failing = await api.createOrg({ name: 'Failing Org' });
    await api.createOrg({ name: 'Healthy Org' });
    // What the delivery worker writes when it gives an event up (apps/webhooks/src/delivery.ts).
    await api.rows(
      `INSERT INTO webhook_endpoints (org_id, url, secret_ciphertext, status)
       VALUES ($1, 'https://hooks.example.com/in', 'unused', 'ACTIVE')`,
      [failing.orgId],
    );
    await api.rows(
      `WITH e AS (INSERT INTO events (id, org_id, entity, data, status)
                  SELECT gen_random_uuid(), $1, 'Actions', '{}', 'FAILED' FROM generate_series(1, 3) RETURNING id, org_id)
       INSERT INTO webhook_failures (event_id, org_id, failed_at) SELECT id, org_id, now() FROM e`,
      [failing.orgId],
    );
    const { context, tab } = await signedIn(browser, api, admin);
    const { page } = tab;
    await section(page, 'Webhooks').click();
    const endpoints = page.getByRole('region', { name: 'Webhook endpoints not healthy, by organisation' });
    const row = endpoints.getByRole('row', { name: /Failing Org/ });
    // Events FAILED but no failed attempt among the recent ones: DEGRADED (endpoint-health.ts).
    await expect(row.innerText()).resolves.toContain('Degraded');
    await expect(row.innerText()).resolves.toContain('3 events of the last 24 hours failed for good');
    await expect(endpoints.innerText()).resolves.not.toContain('Healthy Org');
    await expect(
      page
        .getByRole('region', { name: 'Events that failed for good, newest first' })
        .getByRole('row')
        .count(),
    ).resolves.toBe(4);
    await checkConsolePage(tab, 'webhooks');
    await row.getByRole('link', { name: 'Failing Org' }).click();
    expect(page.url()).toBe(`${api.baseUrl}/console/orgs/${failing.orgId}`);

    await page.goto(`${api.baseUrl}/console/audit`);
    await page.getByRole('textbox', { name: 'Action' }).fill('org.create');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect(mainText(page)).resolves.toContain('ada@ops.test');
    await expect(mainText(page)).resolves.not.toContain('org.update');
    await checkConsolePage(tab, 'audit');
    await context.close();
  });

  it('creates an operator (setup token once), changes their role and disables them; SUPPORT is refused', async () => {
    const { context, tab } = await signedIn(browser, api, admin);
    const { page } = tab;
    await section(page, 'Operators').click();
    await checkConsolePage(tab, 'operators');
    const form = page.getByRole('form', { name: 'New operator' });
    await form.getByLabel('E-mail', { exact: true }).fill('grace@ops.test');
    await form.getByLabel('Name', { exact: true }).fill('Grace');
    await form.getByRole('combobox', { name: /^Role/ }).selectOption('KYC_REVIEWER');
    await page.getByRole('button', { name: 'Create the operator' }).click();
    await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe('Operator created');
    const token = await page.locator('code.secret').innerText();
    expect(token.length).toBeGreaterThan(20);
    await checkConsolePage(tab, 'operator-created');
    const [grace] = await api.rows<{ id: string; role: string }>(
      "SELECT id, role FROM operators WHERE email = 'grace@ops.test'",
    );
    expect(grace!.role).toBe('KYC_REVIEWER');
    expect((await audit('operator.create')).at(-1)).toMatchObject({ actor: 'ada@ops.test' });

    await page.getByRole('link', { name: 'Back to the operators' }).click();
    expect(await page.content()).not.toContain(token);
    const row = page.getByRole('row', { name: /grace@ops\.test/ });
    await row.getByText('Change', { exact: true }).click();
    await row.getByRole('combobox', { name: /^Role/ }).selectOption('TRADING_OPS');
    await row.getByRole('button', { name: 'Change the role' }).click();
    await page.waitForURL(/done=role$/);
    expect(await api.rows('SELECT role FROM operators WHERE id = $1', [grace!.id])).toEqual([
      { role: 'TRADING_OPS' },
    ]);
    await page
      .getByRole('row', { name: /grace@ops\.test/ })
      .getByText('Change', { exact: true })
      .click();
    await page
      .getByRole('row', { name: /grace@ops\.test/ })
      .getByRole('button', { name: 'Disable' })
      .click();
    await page.waitForURL(/done=disabled$/);
    expect((await audit('operator.disable')).at(-1)).toMatchObject({ actor: 'ada@ops.test' });
    await context.close();

    const support = await api.enrolOperator('SUPPORT');
    const asSupport = await signedIn(browser, api, support);
    await expect(section(asSupport.tab.page, 'Operators').count()).resolves.toBe(0);
    const refused = await asSupport.tab.page.goto(`${api.baseUrl}/console/operators`);
    expect(refused?.status()).toBe(403);
    await expect(asSupport.tab.page.getByRole('alert').innerText()).resolves.toContain(
      'this needs the ADMIN role',
    );
    await checkConsolePage(asSupport.tab, 'operators-refused', 403);
    await asSupport.context.close();
  });

  it('reads at 375 px and works by keyboard', async () => {
    const { context, tab } = await signedIn(browser, api, admin, 375);
    const { page } = tab;
    const [org] = await api.rows<{ id: number }>('SELECT id FROM organisations ORDER BY id LIMIT 1');
    for (const path of [
      'orgs',
      `orgs/${org!.id}`,
      'orgs/new',
      'prices',
      'notices',
      'webhooks',
      'audit',
      'operators',
    ]) {
      await page.goto(`${api.baseUrl}/console/${path}`);
      await checkConsolePage(tab, `mobile-${path.replace(/\/\d+$/, '-page').replace('/', '-')}`);
    }
    // The price form by keyboard alone: Tab to its first field, type, Tab, type, Enter.
    await page.goto(`${api.baseUrl}/console/prices`);
    for (let presses = 0; presses < 40; presses++) {
      await page.keyboard.press('Tab');
      if ((await page.evaluate(() => document.activeElement?.id)) === 'price-symbol') break;
    }
    await page.keyboard.type('ETH_EUR');
    await page.keyboard.press('Tab');
    await page.keyboard.type('3000.5');
    await page.keyboard.press('Enter');
    await page.waitForURL(/done=set/);
    expect(await api.rows("SELECT price FROM prices WHERE symbol = 'ETH_EUR'")).toEqual([
      { price: '3000.50000000' },
    ]);
    await context.close();
  });
});
