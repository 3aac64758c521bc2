// A user's KYC file in the operator console, in a real browser (docs/console.md#kyc-review): the documents
// shown inline (an image as <img>, a PDF drawn into canvases by our page script with pdf.js) and served with
// their own headers, uploads that carry script (a PDF/HTML polyglot, an SVG) which never run, and PDFs
// that would cost the tab too much, drawn within the viewer's limits or not at all.
import type { OperatorRole } from '@svc/db';
import type { Page } from 'playwright-core';

import { ApiFixture, type OrgSession } from './support/app-fixture.js';
import { BrowserHarness } from './support/browser.js';
import { checkPage, scrollsSideways, signedIn } from './support/console-browser.js';
import {
  DOCUMENT_CSP,
  enrolEveryRole,
  PDF,
  pdfFile,
  PHOTO,
  seedQueue,
  submittedKyc,
} from './support/console-kyc.js';
import type { EnrolledOperator } from './support/enrolled-operator.js';

jest.setTimeout(120_000);

/** The viewer's limits (apps/api/public/kyc-pdf-limits.mjs), read from the page that uses them. */
interface PdfLimits {
  readonly MAX_CANVAS_SIDE: number;
  readonly MAX_CANVAS_PIXELS: number;
  readonly MAX_PAGES: number;
  readonly DEADLINE_MS: number;
}

/** How long past the viewer's deadline the page may take to say so: loading it, fetching the bytes. */
const DEADLINE_MARGIN_MS = 5_000;

/**
 * One deflated content stream of three million filled squares (75 KB): more drawing operators than
 * the viewer takes, and far more than this machine's pdf.js parses and draws before the deadline.
 */
const OPERATORS_PDF = pdfFile([
  { width: 612, height: 792, deflate: true, content: Buffer.alloc(3_000_000 * 13, '0 0 1 1 re f\n') },
]);
/** Twenty pages of 14,400 points (200 inches) a side, each with a black square in its top right corner. */
const HUGE_PAGES_PDF = pdfFile(
  Array.from({ length: 20 }, () => ({
    width: 14_400,
    height: 14_400,
    content: Buffer.from('0 0 0 rg 12400 12400 2000 2000 re f\n'),
  })),
);

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
    await expect(tab.page.getByRole('region', { name: 'Form' }).innerText()).resolves.toMatch(
      /First name\s+Ada\s+Last name\s+Lovelace/,
    );
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

  it('previews a PDF within bounds: small canvases, the first pages, a deadline, and stops', async () => {
    await submittedKyc(org, 'oversized', [
      { name: 'operators.pdf', type: 'application/pdf', content: OPERATORS_PDF },
      { name: 'huge-pages.pdf', type: 'application/pdf', content: HUGE_PAGES_PDF },
      { name: 'passport.pdf', type: 'application/pdf', content: PDF },
    ]);
    const documents = await api.rows<{ id: string; file_name: string }>(
      "SELECT d.id, d.file_name FROM kyc_documents d JOIN users u ON u.id = d.user_id WHERE u.org_user_id = 'oversized'",
    );
    const idOf = Object.fromEntries(documents.map((row) => [row.file_name, row.id]));
    const { context, tab } = await signedIn(browser, api, operators.KYC_REVIEWER);
    const holder = (name: string) => tab.page.locator(`.pdf-pages[data-document-id="${idOf[name]}"]`);
    const started = Date.now();
    await tab.page.goto(fileUrl('oversized'));
    const limits = await tab.page.evaluate<PdfLimits>(
      "import('/assets/kyc-pdf-limits.mjs').then((limits) => ({ ...limits }))",
    );

    // While the operators are being drawn the page answers at once, and past the deadline it gives up.
    const heavy = holder('operators.pdf');
    const answers: number[] = [];
    while (
      (await heavy.getAttribute('data-state')) === null &&
      Date.now() - started < limits.DEADLINE_MS + DEADLINE_MARGIN_MS
    ) {
      const asked = Date.now();
      await tab.page.evaluate(() => document.querySelectorAll('canvas').length);
      answers.push(Date.now() - asked);
      await tab.page.waitForTimeout(250);
    }
    await expect(heavy.getAttribute('data-state')).resolves.toBe('too-large');
    expect(Date.now() - started).toBeLessThan(limits.DEADLINE_MS + DEADLINE_MARGIN_MS);
    expect(Math.max(...answers)).toBeLessThan(1_000);
    await expect(heavy.textContent()).resolves.toBe(
      'This PDF is too large to preview: download it to read it.',
    );
    await expect(heavy.getByRole('link', { name: 'download it' }).getAttribute('href')).resolves.toBe(
      `${fileUrl('oversized').slice(api.baseUrl.length)}/documents/${idOf['operators.pdf']}?download=1`,
    );
    await expect(heavy.locator('canvas').count()).resolves.toBe(0);

    // The huge pages: the first few, each scaled down whole into a canvas within the caps.
    const huge = holder('huge-pages.pdf');
    await tab.page.locator(`.pdf-pages[data-document-id="${idOf['huge-pages.pdf']}"][data-state]`).waitFor();
    await expect(huge.getAttribute('data-state')).resolves.toBe('drawn');
    const canvases = await huge
      .locator('canvas')
      .evaluateAll((all: HTMLCanvasElement[]) =>
        all.map((canvas) => ({ width: canvas.width, height: canvas.height, label: canvas.ariaLabel })),
      );
    expect(canvases).toHaveLength(limits.MAX_PAGES);
    for (const [index, canvas] of canvases.entries()) {
      expect(canvas.label).toBe(`Page ${index + 1} of 20 of document ${idOf['huge-pages.pdf']}`);
      expect(Math.max(canvas.width, canvas.height)).toBeLessThanOrEqual(limits.MAX_CANVAS_SIDE);
      expect(canvas.width * canvas.height).toBeLessThanOrEqual(limits.MAX_CANVAS_PIXELS);
      expect(canvas.width).toBeGreaterThan(1000);
    }
    await expect(huge.textContent()).resolves.toContain(
      `${20 - limits.MAX_PAGES} more pages: download it to see them.`,
    );
    // The whole page is in the canvas: its black square, a 7.2 by 7.2 part of it, in the top right corner.
    const dark = await huge
      .locator('canvas')
      .first()
      .evaluate((canvas: HTMLCanvasElement) => {
        const side = Math.floor(canvas.width / 7.2);
        const corner = canvas.getContext('2d')!.getImageData(canvas.width - side, 0, side, side).data;
        let count = 0;
        for (let at = 0; at < corner.length; at += 4)
          if (corner[at]! < 40 && corner[at + 3]! > 200) count += 1;
        return count / (side * side);
      });
    expect(dark).toBeGreaterThan(0.95);

    // A normal PDF beside them is drawn as ever.
    const normal = holder('passport.pdf');
    await tab.page.locator(`.pdf-pages[data-document-id="${idOf['passport.pdf']}"][data-state]`).waitFor();
    await expect(normal.getAttribute('data-state')).resolves.toBe('drawn');
    await expect(normal.locator('canvas').count()).resolves.toBe(1);

    // No pdf.js worker is left running: the stopped one was ended, the others when done.
    for (const waitUntil = Date.now() + 5_000; tab.page.workers().length > 0 && Date.now() < waitUntil;) {
      await tab.page.waitForTimeout(100);
    }
    expect(tab.page.workers().map((worker) => worker.url())).toEqual([]);
    await expect(tab.page.locator('.pdf-pages[aria-busy]').count()).resolves.toBe(0);
    await checkPage(tab, 'kyc-file-oversized');
    await context.close();
  });

  it('stops taking drawing operators past their cap, long before the deadline', async () => {
    await submittedKyc(org, 'many-operators', [
      { name: 'operators.pdf', type: 'application/pdf', content: OPERATORS_PDF },
    ]);
    const { context, tab } = await signedIn(browser, api, operators.KYC_REVIEWER);
    // This machine's pdf.js parses the stream too slowly to reach the real cap before the deadline: the
    // page is given limits of a small cap and a deadline it will not reach.
    let served = '';
    await context.route(`${api.baseUrl}/assets/kyc-pdf-limits.mjs`, async (route) => {
      const answer = await route.fetch();
      served = (await answer.text())
        .replace(/MAX_OPERATORS = [\d_]+;/, 'MAX_OPERATORS = 20_000;')
        .replace(/DEADLINE_MS = [\d_]+;/, 'DEADLINE_MS = 600_000;');
      await route.fulfill({ response: answer, body: served });
    });
    const started = Date.now();
    await tab.page.goto(fileUrl('many-operators'));
    expect(served).toContain('MAX_OPERATORS = 20_000;');
    expect(served).toContain('DEADLINE_MS = 600_000;');
    await tab.page.locator('.pdf-pages[data-state]').waitFor({ timeout: 20_000 });
    expect(Date.now() - started).toBeLessThan(20_000);
    await expect(tab.page.locator('.pdf-pages').getAttribute('data-state')).resolves.toBe('too-large');
    await expect(tab.page.locator('.pdf-pages canvas').count()).resolves.toBe(0);
    for (const waitUntil = Date.now() + 5_000; tab.page.workers().length > 0 && Date.now() < waitUntil;) {
      await tab.page.waitForTimeout(100);
    }
    expect(tab.page.workers().map((worker) => worker.url())).toEqual([]);
    await context.close();
  });
});
