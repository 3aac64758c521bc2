// A user's KYC file in the operator console, in a real browser (docs/console.md#kyc-review): the documents
// shown inline (an image as <img>, a PDF drawn into canvases by our page script with pdf.js) and served with
// their own headers, and uploads that carry script (a PDF/HTML polyglot, an SVG) which never run.
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
    const messages: string[] = [];
    tab.page.on('console', (message) => messages.push(message.text()));
    await tab.page.goto(`${api.baseUrl}/console/kyc`);
    await tab.page.getByRole('link', { name: 'applicant', exact: true }).click();
    await tab.page.waitForURL(fileUrl('applicant'));
    await expect(heading(tab.page)).resolves.toBe('KYC of applicant');
    const image = tab.page.getByRole('img', { name: /photo\.png/ });
    await expect(image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).resolves.toBe(
      240,
    );
    // The PDF: its one page drawn by pdf.js into a canvas named for it, the black rectangle on it.
    const [pdfRow] = await api.rows<{ id: string }>(
      "SELECT d.id FROM kyc_documents d JOIN users u ON u.id = d.user_id WHERE u.org_user_id = 'applicant' AND d.file_name = 'passport.pdf'",
    );
    const pdfPage = tab.page.getByRole('img', { name: `Page 1 of 1 of document ${pdfRow!.id}` });
    await tab.page.locator('.pdf-pages[data-state="drawn"]').waitFor();
    await expect(tab.page.locator('.pdf-pages[aria-busy]').count()).resolves.toBe(0);
    await expect(tab.page.locator('.pdf-pages canvas').count()).resolves.toBe(1);
    const drawn = await pdfPage.evaluate((canvas: HTMLCanvasElement) => {
      const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
      let dark = 0;
      for (let at = 0; at < data.length; at += 4) {
        if (data[at]! < 40 && data[at + 1]! < 40 && data[at + 2]! < 40 && data[at + 3]! > 200) dark += 1;
      }
      return dark / (canvas.width * canvas.height);
    });
    // The rectangle is 200 x 100 points of a 612 x 792 page.
    expect(drawn).toBeCloseTo((200 * 100) / (612 * 792), 2);
    await expect(tab.page.locator('iframe').count()).resolves.toBe(0);
    // pdf.js ran its worker (the policy's worker-src), not its in-page fallback.
    expect(messages.filter((text) => /fake worker|worker-src|Refused/i.test(text))).toEqual([]);
    await expect(tab.page.locator('main').textContent()).resolves.not.toContain('could not be drawn');
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
    // pdf.js is served from the installed package, its two files only, as JavaScript; the page's policy
    // lets its worker start from our origin and nothing else.
    for (const file of ['pdf.min.mjs', 'pdf.worker.min.mjs']) {
      const script = await tab.page.request.get(`${api.baseUrl}/assets/pdfjs/${file}`);
      expect([file, script.status(), script.headers()['content-type']]).toEqual([
        file,
        200,
        expect.stringMatching(/^(text|application)\/javascript/),
      ]);
    }
    for (const other of ['pdf.mjs', 'pdf.sandbox.min.mjs', '..%2Fpackage.json']) {
      expect([other, (await tab.page.request.get(`${api.baseUrl}/assets/pdfjs/${other}`)).status()]).toEqual([
        other,
        404,
      ]);
    }
    const policy = (await tab.page.request.get(fileUrl('applicant'))).headers()['content-security-policy'];
    expect(policy).toContain("worker-src 'self'");
    expect(policy).not.toContain('unsafe');
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
    // pdf.js is given the polyglot as data: it draws nothing of it and says so; the download stays.
    await tab.page.locator('.pdf-pages[data-state="failed"]').waitFor();
    await expect(tab.page.locator('.pdf-pages').textContent()).resolves.toContain('could not be drawn');
    await expect(tab.page.locator('canvas').count()).resolves.toBe(0);
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
