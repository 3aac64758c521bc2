// Records as people read them in the operator console, in a real browser (docs/console.md): the audit log
// newest first, its details folded, filtered by an operator's e-mail, fifteen long entries making a page of
// sane height with a details column of sane width; a KYC file's form as labelled fields in a reviewer's
// order with unknown stored keys after, and the KYC history as the dashboard shows it; every list page at
// 375 px as cards within the screen. axe-core at 1280 and 375 px.
import type { Page } from 'playwright-core';

import { ApiFixture, type OrgSession } from './support/app-fixture.js';
import { BrowserHarness, sidewaysReading } from './support/browser.js';
import { checkConsolePage, mainText, signedIn } from './support/console-browser.js';
import { PDF, submittedKyc } from './support/console-kyc.js';
import { seedOrganisation, type SeededData, signInLink } from './support/dashboard-session.js';
import type { EnrolledOperator } from './support/enrolled-operator.js';

jest.setTimeout(120_000);

/** The details of an entry that records a large request, as an organisation's update with many fields. */
const LONG_NOTE = 'a long explanation of why the organisation was changed, as operators write them; '.repeat(
  8,
);

describe('records in the console', () => {
  let api: ApiFixture;
  let browser: BrowserHarness;
  let admin: EnrolledOperator;
  let grace: { id: string; email: string };
  let org: OrgSession;
  let data: SeededData;

  beforeAll(async () => {
    [api, browser] = await Promise.all([ApiFixture.start(), BrowserHarness.launch()]);
    admin = await api.enrolOperator('ADMIN', 'ada@ops.test');
    grace = await api.createOperator('SUPPORT', { email: 'grace@ops.test' });
    org = await api.createOrg({ name: 'Readable Brokers', kycDomain: 'localhost' });
    data = await seedOrganisation(org, 'rec');
    await submittedKyc(org, 'rec-waiting', [{ name: 'passport.pdf', type: 'application/pdf', content: PDF }]);
    // Fifteen entries of Grace's with long details, a minute apart, the last one the newest.
    await api.rows(
      `INSERT INTO audit_log (actor, operator_id, action, org_id, details, created_at)
       SELECT $1, $2::uuid, 'org.update', $3::int,
              jsonb_build_object('n', n, 'orgId', $3::int, 'request', jsonb_build_object(
                'name', 'Readable Brokers ' || n, 'note', $4::text,
                'scopes', to_jsonb(ARRAY['BASE_MODULE:READWRITE', 'MANAGE_USERS:READWRITE']),
                'supportEmails', to_jsonb(ARRAY['ops@readable.example', 'help@readable.example']))),
              now() - (16 - n) * interval '1 minute'
       FROM generate_series(1, 15) AS n`,
      [grace.email, grace.id, org.orgId, LONG_NOTE],
    );
  });

  afterAll(async () => {
    await browser.close();
    await api.close();
  });

  /** The audit rows shown: each one's time (its datetime) and operator. */
  const auditRows = (page: Page) =>
    page.locator('tbody tr').evaluateAll((rows) =>
      rows.map((row) => ({
        at: row.querySelector('time')?.getAttribute('datetime') ?? '',
        operator: row.querySelectorAll('td')[1]?.textContent ?? '',
      })),
    );

  it('shows fifteen long audit entries newest first, folded, on a page of sane height', async () => {
    const { context, tab } = await signedIn(browser, api, admin);
    const { page } = tab;
    await page.goto(`${api.baseUrl}/console/audit?operatorId=${grace.id}`);
    const rows = await auditRows(page);
    expect(rows).toHaveLength(15);
    const times = rows.map((row) => row.at);
    expect(times).toEqual([...times].sort().reverse());
    const [newest] = await api.rows<{ created_at: Date }>(
      'SELECT created_at FROM audit_log WHERE operator_id = $1 ORDER BY id DESC LIMIT 1',
      [grace.id],
    );
    expect(times[0]).toBe(newest!.created_at.toISOString());

    const measure = () =>
      page.evaluate(() => ({
        height: document.scrollingElement?.scrollHeight ?? 0,
        details: document.querySelector('td.record')?.getBoundingClientRect().width ?? 0,
        sideways: (document.scrollingElement?.scrollWidth ?? 0) > window.innerWidth,
        // The table fits its region: no column hidden to the side of it.
        tableFits: [...document.querySelectorAll('.table-wrap')].every(
          (region) => region.scrollWidth <= region.clientWidth,
        ),
      }));
    const folded = await measure();
    // Unfolded JSON in a squeezed column made this page 8,466 px tall with a 79 px details column.
    expect(folded.height).toBeLessThan(2_000);
    expect(folded.details).toBeGreaterThanOrEqual(280);
    expect(folded.sideways).toBe(false);
    expect(folded.tableFits).toBe(true);
    expect(await page.locator('td.record details[open]').count()).toBe(0);

    // One click opens an entry: its whole record, pretty-printed, in the same column.
    await page.locator('td.record summary').first().click();
    const record = page.locator('td.record details[open] pre');
    await expect(record.isVisible()).resolves.toBe(true);
    const text = (await record.textContent()) ?? '';
    expect(text).toContain('\n  "request": {\n');
    expect(JSON.parse(text)).toMatchObject({
      n: 15,
      request: { name: 'Readable Brokers 15', note: LONG_NOTE },
    });
    const opened = await measure();
    expect(opened.details).toBeGreaterThanOrEqual(280);
    expect(opened.sideways).toBe(false);
    expect(opened.tableFits).toBe(true);
    await checkConsolePage(tab, 'audit-long');
    await context.close();
  });

  it("filters the audit log by an operator's e-mail, as typed", async () => {
    const { context, tab } = await signedIn(browser, api, admin);
    const { page } = tab;
    await page.goto(`${api.baseUrl}/console/audit`);
    // Everyone's entries, newest first: Ada's sign-ins came after Grace's entries.
    expect((await auditRows(page))[0]?.operator).toBe('ada@ops.test');
    await page.getByRole('textbox', { name: 'Operator e-mail' }).fill('Grace@Ops.Test');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/operatorEmail=/);
    const rows = await auditRows(page);
    const [stored] = await api.rows<{ n: number }>(
      "SELECT count(*)::int AS n FROM audit_log WHERE actor = 'grace@ops.test'",
    );
    expect(rows).toHaveLength(stored!.n);
    expect(new Set(rows.map((row) => row.operator))).toEqual(new Set(['grace@ops.test']));
    await expect(page.getByRole('textbox', { name: 'Operator e-mail' }).inputValue()).resolves.toBe(
      'grace@ops.test',
    );
    // The operator of an entry is a link to their entries, by e-mail.
    await page.getByRole('link', { name: 'grace@ops.test' }).first().click();
    await page.waitForURL(/operatorEmail=grace%40ops\.test/);
    expect(await auditRows(page)).toHaveLength(stored!.n);
    await checkConsolePage(tab, 'audit-by-email');

    // An address of no operator finds nothing; one that is no address is refused by name, reading nothing.
    await page.goto(`${api.baseUrl}/console/audit?operatorEmail=nobody%40ops.test`);
    await expect(mainText(page)).resolves.toContain('No entry matches.');
    const refused = await page.goto(`${api.baseUrl}/console/audit?operatorEmail=not-an-address`);
    expect(refused?.status()).toBe(400);
    await expect(mainText(page)).resolves.toContain('operatorEmail must be an e-mail address');
    await context.close();
  });

  it('shows the KYC form as labelled fields in order, unknown keys after, and the history as the dashboard does', async () => {
    // A form stored under older rules: a key the form no longer has, and one in the address.
    await api.rows(
      `UPDATE users SET kyc_form = jsonb_set(kyc_form, '{address,region}', '"Greater London"')
                                   || '{"middleName": "Augusta"}'
       WHERE org_user_id = $1`,
      [data.applicant],
    );
    const [before] = await api.rows<{ kyc_form: object }>(
      'SELECT kyc_form FROM users WHERE org_user_id = $1',
      [data.applicant],
    );
    const { context, tab } = await signedIn(browser, api, admin);
    const { page } = tab;
    await page.goto(`${api.baseUrl}/console/kyc/${org.orgId}/${data.applicant}`);
    const form = page.getByRole('region', { name: 'Form' });
    const facts = (list: number) =>
      form
        .locator('dl.facts')
        .nth(list)
        .locator('div')
        .evaluateAll((items) =>
          items.map((item) => [item.querySelector('dt')?.textContent, item.querySelector('dd')?.textContent]),
        );
    expect(await facts(0)).toEqual([
      ['First name', 'Ada'],
      ['Last name', 'Lovelace'],
      ['Date of birth', '1 April 1990 (1990-04-01)'],
      ['Nationality', 'United Kingdom (GB)'],
      ['Address line 1', '1 Main Street'],
      ['City', 'London'],
      ['Postal code', 'N1 1AA'],
      ['Country of residence', 'United Kingdom (GB)'],
    ]);
    expect(await facts(1)).toEqual([
      ['address.region', 'Greater London'],
      ['middleName', 'Augusta'],
    ]);
    await expect(form.innerText()).resolves.not.toContain('"firstName"');

    // The history: the same table, row for row, as the organisation's dashboard shows for this user.
    const history = (on: Page) =>
      on.getByRole('region', { name: 'KYC events, newest first' }).locator('tbody tr').allInnerTexts();
    const shown = await history(page);
    expect(shown[0]).toContain('KYC_RFI');
    expect(shown[0]).toContain('Please upload a clearer passport photo');
    const [events] = await api.rows<{ n: number }>(
      `SELECT count(*)::int AS n FROM events
       WHERE org_id = $1 AND entity = 'Users' AND event_type IS NOT NULL AND data->>'orgUserId' = $2`,
      [org.orgId, data.applicant],
    );
    expect(shown).toHaveLength(events!.n);
    const dashboard = await browser.page(await browser.context());
    await dashboard.page.goto(await signInLink(org));
    await dashboard.page.getByRole('button', { name: 'Continue to the dashboard' }).click();
    await dashboard.page.waitForURL(`${api.baseUrl}/dashboard/`);
    await dashboard.page.goto(`${api.baseUrl}/dashboard/users/${data.applicant}`);
    expect(await history(dashboard.page)).toEqual(shown);
    await checkConsolePage(tab, 'kyc-file-fields');
    // Reading changed nothing.
    expect(await api.rows('SELECT kyc_form FROM users WHERE org_user_id = $1', [data.applicant])).toEqual([
      before,
    ]);
    await context.close();
  });

  it('reads every list page at 375 px: cards within the screen, status in view', async () => {
    const { context, tab } = await signedIn(browser, api, admin, 375);
    const { page } = tab;
    for (const path of [
      'kyc',
      `kyc/${org.orgId}/${data.applicant}`,
      'orgs',
      `orgs/${org.orgId}`,
      'prices',
      'notices',
      'webhooks',
      'operators',
      'audit',
      `audit?operatorEmail=${grace.email}`,
    ]) {
      await page.goto(`${api.baseUrl}/console/${path}`);
      // checkConsolePage: no sideways scrolling, every cell and badge within the screen, axe.
      await checkConsolePage(tab, `records-mobile-${path.replace(/\W+/g, '-')}`);
    }
    await page.goto(`${api.baseUrl}/console/operators`);
    const status = page.locator('tbody tr').first().locator('.badge');
    await expect(status.isVisible()).resolves.toBe(true);
    const box = await status.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(375);
    await page.goto(`${api.baseUrl}/console/prices`);
    await expect(page.locator('#price-BTC_EUR').innerText()).resolves.toContain('50,000 EUR');
    await expect(sidewaysReading(page)).resolves.toEqual({ pageScrolls: false, cut: [] });
    await context.close();
  });
});
