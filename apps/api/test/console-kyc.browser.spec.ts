// KYC review in the operator console, in a real browser (docs/console.md#kyc-review): the queue oldest first
// with its age and its pages, a full review from the queue to the KYC_COMPLETED webhook a real receiver on
// loopback gets from the real delivery worker (apps/webhooks/dist/main.js, spawned as operators run it), each
// role allowed and refused on each page and form (nothing written), and CSRF. The documents' display and
// safety are in console-kyc-documents.browser.spec.ts.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { OperatorRole } from '@svc/db';
import { TestReceiver } from '@svc/webhook-sender/testing';
import type { Page } from 'playwright-core';

import { ApiFixture, type OrgSession } from './support/app-fixture.js';
import { BrowserHarness } from './support/browser.js';
import { checkPage, signedIn } from './support/console-browser.js';
import { csrfOf, enrolEveryRole, kycStateOf, postForm, seedQueue } from './support/console-kyc.js';
import type { EnrolledOperator } from './support/enrolled-operator.js';

const WORKER_MAIN = join(__dirname, '..', '..', 'webhooks', 'dist', 'main.js');
const SECRET = 'whsec_console-kyc-browser-0123456789';

jest.setTimeout(120_000);

describe('KYC review in the console', () => {
  let api: ApiFixture;
  let browser: BrowserHarness;
  let receiver: TestReceiver;
  let worker: ChildProcess;
  /** What the worker logged, for a failure's message. */
  let workerLog = '';
  let org: OrgSession;
  let operators: Record<OperatorRole, EnrolledOperator>;

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
    operators = await enrolEveryRole(api);
    await seedQueue(org);
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
  const fileUrl = (orgUserId: string) => `${api.baseUrl}/console/kyc/${org.orgId}/${orgUserId}`;

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
        const answer = await postForm(api, tab.page.request, `${fileUrl('applicant')}/${step}`, {
          _csrf: csrf,
          [field]: 'looks fine',
        });
        expect([role, step, answer.status()]).toEqual([role, step, 403]);
      }
      await context.close();
    }
    expect(await kycStateOf(api, 'applicant')).toBe('KYC_FORM_SUBMITTED');
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
      const answer = await postForm(api, mine.tab.page.request, `${fileUrl('applicant')}/approve`, form);
      expect(answer.status()).toBe(403);
      expect(await answer.text()).toContain('CSRF token is missing or wrong');
    }
    expect(await kycStateOf(api, 'applicant')).toBe('KYC_FORM_SUBMITTED');
    expect(await api.rows("SELECT 1 FROM audit_log WHERE action LIKE 'kyc.%'")).toEqual([]);
    await mine.context.close();
    await theirs.context.close();
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
    expect(await kycStateOf(api, 'waiting-longest')).toBe('KYC_FORM_SUBMITTED');
    expect(tab.consoleErrors.splice(0).every((error) => error.includes('status of 400 '))).toBe(true);

    await tab.page.getByLabel(/^Note/).fill('Passport checked against the photo');
    await tab.page.getByRole('button', { name: 'Approve' }).click();
    await tab.page.waitForURL(/\/console\/kyc\?decided=approve/);
    await expect(tab.page.getByRole('status').textContent()).resolves.toBe(
      `The KYC of waiting-longest (organisation ${org.orgId}) is approved.`,
    );
    await expect(tab.page.locator('tbody').textContent()).resolves.not.toContain('waiting-longest');
    await checkPage(tab, 'kyc-decided');
    expect(await kycStateOf(api, 'waiting-longest')).toBe('KYC_COMPLETED');

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
    const again = await postForm(api, tab.page.request, `${fileUrl('waiting-longest')}/reject`, {
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
