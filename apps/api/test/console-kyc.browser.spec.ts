// KYC review in the operator console, in a real browser (issue 14, point 4): the queue oldest first with
// its age, a user's file with the documents shown inline, a full review from the queue to the KYC_COMPLETED
// webhook a real receiver on loopback gets from the real delivery worker (apps/webhooks/dist/main.js, spawned
// as operators run it), each role allowed and refused on each page and form (nothing written), CSRF, and
// uploads that carry script and never run.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { OperatorRole } from '@svc/db';
import { TestReceiver } from '@svc/webhook-sender/testing';
import type { APIRequestContext, Page } from 'playwright-core';

import { ApiFixture, type OrgSession } from './support/app-fixture.js';
import { BrowserHarness } from './support/browser.js';
import { checkPage, pngImage, scrollsSideways, signedIn } from './support/console-browser.js';
import type { EnrolledOperator } from './support/enrolled-operator.js';

const WORKER_MAIN = join(__dirname, '..', '..', 'webhooks', 'dist', 'main.js');
const SECRET = 'whsec_console-kyc-browser-0123456789';
const PDF = Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << >>\n%%EOF\n', 'latin1');
/** Passes the upload's check (it starts like a PDF) but is an HTML page with script after that. */
const POLYGLOT = Buffer.from(
  '%PDF-1.7\n<html><body><script>alert("polyglot")</script><img src=x onerror="alert(2)"></body></html>',
  'latin1',
);
const SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert("svg")</script></svg>',
);

jest.setTimeout(120_000);

describe('KYC review in the console', () => {
  let api: ApiFixture;
  let browser: BrowserHarness;
  let receiver: TestReceiver;
  let worker: ChildProcess;
  /** What the worker logged, for a failure's message. */
  let workerLog = '';
  let org: OrgSession;
  const operators = {} as Record<OperatorRole, EnrolledOperator>;

  async function newUser(orgUserId: string, documents: { name: string; type: string; content: Buffer }[]) {
    const created = await org.bearer('POST', '/api/v1/user/', { body: { orgUserId, kyc: false, tnc: true } });
    expect(created.status).toBe(200);
    for (const document of documents) {
      const form = new FormData();
      form.append('docCategory', 'IDENTITY');
      form.append('docSubCategory', 'PASSPORT');
      form.append(
        'file',
        new Blob([new Uint8Array(document.content)], { type: document.type }),
        document.name,
      );
      const upload = await fetch(`${api.baseUrl}/api/v1/user/${orgUserId}/kyc/documents`, {
        method: 'POST',
        headers: { authorization: `Bearer ${await org.token(['MANAGE_USERS:WRITE'])}` },
        body: form,
      });
      expect([document.name, upload.status]).toEqual([document.name, 200]);
    }
    const submitted = await org.bearer('POST', `/api/v1/user/${orgUserId}/kyc/form`, {
      body: {
        firstName: 'Ada',
        lastName: 'Lovelace',
        dateOfBirth: '1990-04-01',
        nationality: 'GB',
        address: { line1: '1 Main Street', city: 'London', postalCode: 'N1 1AA', country: 'GB' },
      },
    });
    expect(submitted.status).toBe(200);
  }

  const kycState = async (orgUserId: string) =>
    (
      await api.rows<{ kyc_state: string }>('SELECT kyc_state FROM users WHERE org_user_id = $1', [orgUserId])
    )[0]?.kyc_state;

  const fileUrl = (orgUserId: string) => `${api.baseUrl}/console/kyc/${org.orgId}/${orgUserId}`;

  beforeAll(async () => {
    if (!existsSync(WORKER_MAIN)) throw new Error(`${WORKER_MAIN} is missing: build the worker first`);
    [api, browser, receiver] = await Promise.all([
      ApiFixture.start({ WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' }),
      BrowserHarness.launch(),
      TestReceiver.start(SECRET),
    ]);
    worker = spawn(process.env.SERVICE_NODE ?? process.execPath, [WORKER_MAIN], {
      env: {
        PATH: process.env.PATH ?? '',
        NODE_ENV: 'test',
        DATABASE_URL: api.db.url,
        MASTER_KEY: api.config.masterKey.toString('base64'),
        WEBHOOK_ALLOW_HTTP: 'true',
        WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8',
        WEBHOOK_POLL_INTERVAL_MS: '500',
        WORKER_PORT: '0',
        DATA_DIR: mkdtempSync(join(tmpdir(), 'svc-console-kyc-')),
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    worker.stdout?.on('data', (chunk: Buffer) => (workerLog += chunk.toString('utf8')));
    worker.stderr?.on('data', (chunk: Buffer) => (workerLog += chunk.toString('utf8')));
    org = await api.createOrg({ name: 'Northwind Brokers', kycDomain: 'localhost' });
    const registered = await org.bearer('POST', '/api/v1/webhooks/', {
      body: { url: receiver.url(), secret: SECRET },
    });
    expect(registered.status).toBe(200);
    for (const role of ['ADMIN', 'KYC_REVIEWER', 'TRADING_OPS', 'SUPPORT'] as const) {
      operators[role] = await api.enrolOperator(
        role,
        `console-${role.toLowerCase().replace('_', '-')}@ops.test`,
      );
    }
    await newUser('waiting-longest', [{ name: 'passport.pdf', type: 'application/pdf', content: PDF }]);
    await newUser('applicant', [
      { name: 'photo.png', type: 'image/png', content: pngImage(240, 150, [40, 110, 180]) },
      { name: 'passport.pdf', type: 'application/pdf', content: PDF },
    ]);
    await newUser('hostile', [{ name: 'tricky.pdf', type: 'application/pdf', content: POLYGLOT }]);
    // A document stored as SVG (as if an older upload check had let it in): it must never be shown.
    await api.rows(
      `INSERT INTO kyc_documents (org_id, user_id, doc_category, doc_sub_category, file_name, content_type, size_bytes, sha256, content)
       SELECT org_id, id, 'IDENTITY', 'PASSPORT', 'face.svg', 'image/svg+xml', $2, 'none', $3 FROM users WHERE org_user_id = $1`,
      ['hostile', SVG.length, SVG],
    );
    // The first has waited two days (its expiry was set when its form came in).
    await api.rows(
      "UPDATE users SET kyc_expires_at = kyc_expires_at - interval '2 days 3 hours' WHERE org_user_id = 'waiting-longest'",
    );
  });

  afterAll(async () => {
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    worker.kill('SIGTERM');
    await exited;
    await browser.close();
    await receiver.close();
    await api.close();
  });

  const heading = (page: Page) => page.getByRole('heading', { level: 1 }).textContent();

  /** A form's CSRF token on the page the tab shows (the sign-out form has one on every page). */
  const csrfOf = (page: Page) => page.locator('input[name="_csrf"]').first().inputValue();

  async function post(request: APIRequestContext, url: string, form: Record<string, string>) {
    return request.post(url, { form, headers: { origin: api.baseUrl }, maxRedirects: 0 });
  }

  it('lists the waiting KYC oldest first with its age, for a reviewer and an ADMIN', async () => {
    for (const role of ['KYC_REVIEWER', 'ADMIN'] as const) {
      const { context, tab } = await signedIn(browser, api, operators[role]);
      await expect(tab.page.getByRole('navigation', { name: 'Sections' }).textContent()).resolves.toContain(
        'KYC review',
      );
      await tab.page.getByRole('link', { name: 'KYC review' }).first().click();
      await tab.page.waitForURL(`${api.baseUrl}/console/kyc`);
      await expect(heading(tab.page)).resolves.toBe('KYC review');
      const rows = await tab.page.locator('tbody tr').allTextContents();
      expect(rows.map((row) => /waiting-longest|applicant|hostile/.exec(row)?.[0])).toEqual([
        'waiting-longest',
        'applicant',
        'hostile',
      ]);
      expect(rows[0]).toMatch(/^2 d 3 h/);
      expect(rows[1]).toMatch(/^\d+ min/);
      expect(rows[0]).toContain('Northwind Brokers');
      if (role === 'KYC_REVIEWER') await checkPage(tab, 'kyc-queue');
      await context.close();
    }
  });

  it('refuses SUPPORT and TRADING_OPS every KYC page, document and form, and writes nothing', async () => {
    const before = await api.rows('SELECT count(*)::int AS n FROM audit_log');
    for (const role of ['SUPPORT', 'TRADING_OPS'] as const) {
      const { context, tab } = await signedIn(browser, api, operators[role]);
      await expect(
        tab.page.getByRole('navigation', { name: 'Sections' }).textContent(),
      ).resolves.not.toContain('KYC review');
      const csrf = await csrfOf(tab.page);
      const [documentId] = await api.rows<{ id: string }>(
        "SELECT d.id FROM kyc_documents d JOIN users u ON u.id = d.user_id WHERE u.org_user_id = 'applicant' LIMIT 1",
      );
      for (const path of [
        '/console/kyc',
        `/console/kyc/${org.orgId}/applicant`,
        `/console/kyc/${org.orgId}/applicant/documents/${documentId!.id}`,
      ]) {
        const answer = await tab.page.goto(`${api.baseUrl}${path}`);
        expect([role, path, answer?.status()]).toEqual([role, path, 403]);
        await expect(tab.page.locator('main').textContent()).resolves.toContain(
          `this needs the KYC_REVIEWER role (held by ADMIN, KYC_REVIEWER); you are ${role}`,
        );
      }
      if (role === 'SUPPORT') await checkPage(tab, 'forbidden', 403);
      for (const [step, field] of [
        ['approve', 'note'],
        ['reject', 'reason'],
        ['request-information', 'message'],
      ] as const) {
        const answer = await post(tab.page.request, `${fileUrl('applicant')}/${step}`, {
          _csrf: csrf,
          [field]: 'looks fine',
        });
        expect([role, step, answer.status()]).toEqual([role, step, 403]);
      }
      await context.close();
    }
    expect(await kycState('applicant')).toBe('KYC_FORM_SUBMITTED');
    // Only the sign-ins were audited.
    const after = await api.rows<{ action: string }>('SELECT action FROM audit_log ORDER BY id OFFSET $1', [
      (before[0] as { n: number }).n,
    ]);
    expect(after.map((row) => row.action)).toEqual(['operator.sign-in', 'operator.sign-in']);
  });

  it('refuses a decision without the CSRF token or with another session’s, and writes nothing', async () => {
    const mine = await signedIn(browser, api, operators.KYC_REVIEWER);
    const theirs = await signedIn(browser, api, operators.ADMIN);
    const other = await csrfOf(theirs.tab.page);
    for (const form of [{ note: 'ok' }, { note: 'ok', _csrf: other }, { note: 'ok', _csrf: 'forged' }]) {
      const answer = await post(mine.tab.page.request, `${fileUrl('applicant')}/approve`, form);
      expect(answer.status()).toBe(403);
      expect(await answer.text()).toContain('CSRF token is missing or wrong');
    }
    expect(await kycState('applicant')).toBe('KYC_FORM_SUBMITTED');
    expect(await api.rows("SELECT 1 FROM audit_log WHERE action LIKE 'kyc.%'")).toEqual([]);
    await mine.context.close();
    await theirs.context.close();
  });

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
      'content-security-policy': "sandbox; default-src 'none'; img-src 'self'; frame-ancestors 'self'",
      'cache-control': 'no-store',
    });
    expect(answer.headers()['content-disposition']).toMatch(
      /^inline; filename="kyc-document-[0-9a-f-]+\.png"$/,
    );
    expect((await answer.body()).equals(pngImage(240, 150, [40, 110, 180]))).toBe(true);
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
      'content-security-policy': "sandbox; default-src 'none'; img-src 'self'; frame-ancestors 'self'",
    });
    const svg = await tab.page.request.get(`${fileUrl('hostile')}/documents/${byName['face.svg']}`);
    expect(svg.headers()).toMatchObject({
      'content-type': 'application/octet-stream',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "sandbox; default-src 'none'; img-src 'self'; frame-ancestors 'self'",
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

  it('reviews from the queue to the KYC_COMPLETED webhook, audited as the reviewer', async () => {
    const reviewer = operators.KYC_REVIEWER;
    const { context, tab } = await signedIn(browser, api, reviewer);
    await tab.page.goto(`${api.baseUrl}/console/kyc`);
    // By keyboard: from the skip link to the oldest user's link, and Enter.
    await tab.page.getByRole('link', { name: 'waiting-longest' }).focus();
    await tab.page.keyboard.press('Enter');
    await tab.page.waitForURL(fileUrl('waiting-longest'));
    await expect(tab.page.locator('main').textContent()).resolves.toMatch(/Waiting2 d 3 h/);

    // A request for information without its text comes back with the error; nothing is written.
    const message = tab.page.getByLabel('What the user must provide');
    await message.evaluate((field) => field.removeAttribute('required'));
    await tab.page.getByRole('button', { name: 'Request information' }).click();
    await expect(tab.page.getByRole('alert').textContent()).resolves.toContain('message');
    expect(await kycState('waiting-longest')).toBe('KYC_FORM_SUBMITTED');
    expect(tab.consoleErrors.splice(0).every((error) => error.includes('status of 400 '))).toBe(true);

    await tab.page.getByLabel(/^Note/).fill('Passport checked against the photo');
    await tab.page.getByRole('button', { name: 'Approve' }).click();
    await tab.page.waitForURL(/\/console\/kyc\?decided=approve/);
    await expect(tab.page.getByRole('status').textContent()).resolves.toBe(
      `The KYC of waiting-longest (organisation ${org.orgId}) is approved.`,
    );
    await expect(tab.page.locator('tbody').textContent()).resolves.not.toContain('waiting-longest');
    await checkPage(tab, 'kyc-decided');
    expect(await kycState('waiting-longest')).toBe('KYC_COMPLETED');

    const [audit] = await api.rows<{ actor: string; operator_id: string; details: Record<string, unknown> }>(
      "SELECT actor, operator_id, details FROM audit_log WHERE action = 'kyc.approve'",
    );
    expect(audit).toMatchObject({
      actor: reviewer.email,
      operator_id: reviewer.id,
      details: {
        orgUserId: 'waiting-longest',
        eventType: 'KYC_COMPLETED',
        note: 'Passport checked against the photo',
      },
    });
    const [review] = await api.rows('SELECT reviewer, message, event_type FROM kyc_reviews');
    expect(review).toEqual({
      reviewer: reviewer.email,
      message: 'Passport checked against the photo',
      event_type: 'KYC_COMPLETED',
    });

    // The worker delivers the event to the organisation's receiver, signed.
    const completed = () =>
      receiver
        .events()
        .find(
          ({ body }) =>
            JSON.stringify(body).includes('KYC_COMPLETED') &&
            JSON.stringify(body).includes('waiting-longest'),
        );
    for (const started = Date.now(); !completed(); await new Promise((r) => setTimeout(r, 200))) {
      if (Date.now() - started > 30_000)
        throw new Error(
          `no KYC_COMPLETED delivery within 30 s; received ${receiver.requests.length} requests; the worker logged:\n${workerLog.slice(-3000)}`,
        );
    }
    expect(completed()?.request.verified).toBe(true);

    // Deciding again: the state moved on, a 409 page, nothing more written.
    const again = await post(tab.page.request, `${fileUrl('waiting-longest')}/reject`, {
      _csrf: await csrfOf(tab.page),
      reason: 'too late',
    });
    expect(again.status()).toBe(409);
    expect(await api.rows("SELECT 1 FROM audit_log WHERE action = 'kyc.reject'")).toEqual([]);
    await context.close();
  });

  it('pages the queue by 50, in the same order', async () => {
    // 55 more users waiting, made directly (the queue reads users; how they got there is tested above).
    await api.rows(
      `INSERT INTO users (org_id, org_user_id, kyc, tnc, user_status, kyc_state, kyc_expires_at)
       SELECT $1, 'bulk-' || lpad(n::text, 2, '0'), false, true, 'PENDING', 'KYC_FORM_SUBMITTED',
              now() + interval '40 days' + n * interval '1 minute'
         FROM generate_series(1, 55) AS n`,
      [org.orgId],
    );
    const { context, tab } = await signedIn(browser, api, operators.KYC_REVIEWER);
    await tab.page.goto(`${api.baseUrl}/console/kyc`);
    const users = () => tab.page.locator('tbody tr td:nth-child(3)').allTextContents();
    const first = await users();
    expect(first).toHaveLength(50);
    expect(first.slice(0, 2)).toEqual(['applicant', 'hostile']);
    await tab.page.getByRole('link', { name: 'Next page' }).click();
    const second = await users();
    expect(second).toEqual(['bulk-49', 'bulk-50', 'bulk-51', 'bulk-52', 'bulk-53', 'bulk-54', 'bulk-55']);
    await expect(tab.page.getByRole('link', { name: 'Next page' }).count()).resolves.toBe(0);
    await expect(tab.page.locator('main').textContent()).resolves.toContain('57 waiting for a decision');
    await context.close();
  });
});
