// A user's KYC file in the operator console, in a real browser (issue 14, point 4): the documents shown
// inline (an image as <img>, a PDF in a sandboxed frame) and served with their own headers, and uploads
// that carry script (a PDF/HTML polyglot, an SVG) which never run.
import type { OperatorRole } from '@svc/db';
import type { Page } from 'playwright-core';

import { ApiFixture, type OrgSession } from './support/app-fixture.js';
import { BrowserHarness } from './support/browser.js';
import { checkPage, scrollsSideways, signedIn } from './support/console-browser.js';
import { DOCUMENT_CSP, enrolEveryRole, PHOTO, seedQueue } from './support/console-kyc.js';
import type { EnrolledOperator } from './support/enrolled-operator.js';

jest.setTimeout(120_000);

describe('KYC documents in the console', () => {
  let api: ApiFixture;
  let browser: BrowserHarness;
  let org: OrgSession;
  let operators: Record<OperatorRole, EnrolledOperator>;

  beforeAll(async () => {
    [api, browser] = await Promise.all([ApiFixture.start(), BrowserHarness.launch()]);
    org = await api.createOrg({ name: 'Northwind Brokers', kycDomain: 'localhost' });
    operators = await enrolEveryRole(api);
    await seedQueue(org);
  });

  afterAll(async () => {
    await browser.close();
    await api.close();
  });

  const heading = (page: Page) => page.getByRole('heading', { level: 1 }).textContent();
  const fileUrl = (orgUserId: string) => `${api.baseUrl}/console/kyc/${org.orgId}/${orgUserId}`;

  it('shows a file with its documents inline and served safely', async () => {
    const { context, tab } = await signedIn(browser, api, operators.KYC_REVIEWER);
    await tab.page.goto(`${api.baseUrl}/console/kyc`);
    await tab.page.getByRole('link', { name: 'applicant', exact: true }).click();
    await tab.page.waitForURL(fileUrl('applicant'));
    await expect(heading(tab.page)).resolves.toBe('KYC of applicant');
    const image = tab.page.getByRole('img', { name: /photo\.png/ });
    await expect(image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).resolves.toBe(
      240,
    );
    await expect(tab.page.locator('iframe[sandbox=""]').count()).resolves.toBe(1);
    await expect(tab.page.locator('main').textContent()).resolves.toContain('"firstName": "Ada"');
    await checkPage(tab, 'kyc-file');

    const src = await image.getAttribute('src');
    const answer = await tab.page.request.get(`${api.baseUrl}${src}`);
    expect(answer.status()).toBe(200);
    expect(answer.headers()).toMatchObject({
      'content-type': 'image/png',
      'x-content-type-options': 'nosniff',
      'content-security-policy': DOCUMENT_CSP,
      'cache-control': 'no-store',
    });
    expect(answer.headers()['content-disposition']).toMatch(
      /^inline; filename="kyc-document-[0-9a-f-]+\.png"$/,
    );
    expect((await answer.body()).equals(PHOTO)).toBe(true);
    const download = await tab.page.request.get(`${api.baseUrl}${src}?download=1`);
    expect(download.headers()['content-disposition']).toMatch(/^attachment; /);
    // Another organisation's id, or a document of another user: not found.
    expect(
      (await tab.page.request.get(`${api.baseUrl}${src!.replace(`/${org.orgId}/`, '/999999/')}`)).status(),
    ).toBe(404);
    const [foreign] = await api.rows<{ id: string }>(
      "SELECT d.id FROM kyc_documents d JOIN users u ON u.id = d.user_id WHERE u.org_user_id = 'hostile' LIMIT 1",
    );
    expect((await tab.page.request.get(`${fileUrl('applicant')}/documents/${foreign!.id}`)).status()).toBe(
      404,
    );

    // At 375 px the file reads without sideways scrolling.
    await tab.page.setViewportSize({ width: 375, height: 800 });
    await expect(scrollsSideways(tab.page)).resolves.toBe(false);
    await checkPage(tab, 'mobile-kyc-file');
    await context.close();
  });

  it('never runs script from an upload: a PDF/HTML polyglot and a stored SVG', async () => {
    const { context, tab } = await signedIn(browser, api, operators.KYC_REVIEWER);
    const dialogs: string[] = [];
    const messages: string[] = [];
    tab.page.on('dialog', (dialog) => dialogs.push(dialog.message()));
    tab.page.on('console', (message) => messages.push(message.text()));
    await tab.page.goto(fileUrl('hostile'));
    await expect(tab.page.locator('main').textContent()).resolves.toContain(
      'image/svg+xml (not shown: its content is not what it says)',
    );
    await expect(tab.page.locator('main img').count()).resolves.toBe(0);
    await tab.page.waitForTimeout(1000);
    const documents = await api.rows<{ id: string; file_name: string }>(
      "SELECT d.id, d.file_name FROM kyc_documents d JOIN users u ON u.id = d.user_id WHERE u.org_user_id = 'hostile' ORDER BY d.created_at",
    );
    const byName = Object.fromEntries(documents.map((row) => [row.file_name, row.id]));
    const polyglot = await tab.page.request.get(`${fileUrl('hostile')}/documents/${byName['tricky.pdf']}`);
    expect(polyglot.headers()).toMatchObject({
      'content-type': 'application/pdf',
      'x-content-type-options': 'nosniff',
      'content-security-policy': DOCUMENT_CSP,
    });
    const svg = await tab.page.request.get(`${fileUrl('hostile')}/documents/${byName['face.svg']}`);
    expect(svg.headers()).toMatchObject({
      'content-type': 'application/octet-stream',
      'x-content-type-options': 'nosniff',
      'content-security-policy': DOCUMENT_CSP,
    });
    expect(svg.headers()['content-disposition']).toMatch(
      /^attachment; filename="kyc-document-[0-9a-f-]+\.bin"$/,
    );
    // Opened on its own, the SVG is a download, never a page.
    const download = tab.page.waitForEvent('download');
    await tab.page.getByRole('link', { name: 'Download face.svg' }).click();
    await download;
    expect(dialogs).toEqual([]);
    expect(messages.filter((text) => /polyglot|svg|alert/i.test(text))).toEqual([]);
    await context.close();
  });
});
