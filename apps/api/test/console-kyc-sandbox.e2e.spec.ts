// The console's KYC queue and KYC file for a sandbox organisation whose test clock moved (docs/console.md#kyc-review):
// the user's expiresAt runs on the organisation's clock, yet how long the form has waited is real time,
// from its KYC_FORM_SUBMITTED event, before and after the clock moves again.
import { ApiFixture, type OrgSession } from './support/app-fixture.js';
import { ConsoleClient } from './support/console-client.js';

const PDF = Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << >>\n%%EOF\n', 'latin1');
const FORM = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  dateOfBirth: '1990-02-28',
  nationality: 'GB',
  address: { line1: '1 Main Street', city: 'London', postalCode: 'N1 1AA', country: 'GB' },
};
const DAY_S = 24 * 60 * 60;

describe("the console's KYC wait for a sandbox organisation whose clock moved", () => {
  let api: ApiFixture;
  let sandbox: OrgSession;
  let reviewer: ConsoleClient;

  beforeAll(async () => {
    api = await ApiFixture.start();
    sandbox = await api.createOrg({ environment: 'SANDBOX' });
    reviewer = await ConsoleClient.signIn(api, await api.enrolOperator('KYC_REVIEWER', 'kim@ops.test'));
  });
  afterAll(() => api.close());

  async function submitForm(orgUserId: string): Promise<void> {
    const created = await sandbox.signed('POST', '/api/v1/user/', {
      body: { orgUserId, kyc: false, tnc: true },
    });
    expect(created.status).toBe(200);
    const token = await sandbox.token(['MANAGE_USERS:WRITE']);
    const form = new FormData();
    form.append('docCategory', 'IDENTITY');
    form.append('docSubCategory', 'PASSPORT');
    form.append('file', new Blob([new Uint8Array(PDF)], { type: 'application/pdf' }), 'passport.pdf');
    const uploaded = await fetch(`${api.baseUrl}/api/v1/user/${orgUserId}/kyc/documents`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    expect(uploaded.status).toBe(200);
    const submitted = await sandbox.signed('POST', `/api/v1/user/${orgUserId}/kyc/form`, { body: FORM });
    expect(submitted.status).toBe(200);
  }

  const advance = async (seconds: number) =>
    expect(
      (await sandbox.signed('POST', '/api/v1/sandbox/clock', { body: { advanceBy: seconds } })).status,
    ).toBe(200);

  /** The user's stored expiry and the real time of their KYC_FORM_SUBMITTED event. */
  async function stored(orgUserId: string) {
    const [user] = await api.rows<{ kyc_expires_at: Date }>(
      'SELECT kyc_expires_at FROM users WHERE org_id = $1 AND org_user_id = $2',
      [sandbox.orgId, orgUserId],
    );
    const [event] = await api.rows<{ created_at: Date }>(
      "SELECT created_at FROM events WHERE org_id = $1 AND event_type = 'KYC_FORM_SUBMITTED' AND data->>'orgUserId' = $2",
      [sandbox.orgId, orgUserId],
    );
    return { expiresAt: user!.kyc_expires_at, submittedAt: event!.created_at };
  }

  /** The queue's row of the user: the wait, the submission and the expiry as shown. */
  async function queueRow(orgUserId: string) {
    const queue = await reviewer.get('/console/kyc');
    expect(queue.status).toBe(200);
    const row = queue.html.split('<tr').find((tr) => tr.includes(`>${orgUserId}</a>`));
    expect(row).toBeDefined();
    const cells = [...row!.matchAll(/<td[^>]*>(.*?)<\/td>/gs)].map((cell) => cell[1]!);
    const time = (cell: string) => /dateTime="([^"]+)"|datetime="([^"]+)"/.exec(cell)?.slice(1).find(Boolean);
    return { waiting: cells[0], submitted: time(cells[4]!), expires: time(cells[5]!) };
  }

  it('shows the real wait since the form was submitted, on the queue and the file, however the clock moves', async () => {
    await advance(2 * DAY_S);
    await submitForm('moved-clock');
    const { expiresAt, submittedAt } = await stored('moved-clock');
    // The expiry is on the organisation's clock: two days ahead of real time plus the window.
    expect(expiresAt.getTime() - submittedAt.getTime()).toBeGreaterThan(2 * DAY_S * 1000);

    expect(await queueRow('moved-clock')).toEqual({
      waiting: expect.stringMatching(/^[01] min$/) as string,
      submitted: submittedAt.toISOString(),
      expires: expiresAt.toISOString(),
    });
    const file = await reviewer.get(`/console/kyc/${sandbox.orgId}/moved-clock`);
    expect(file.status).toBe(200);
    expect(file.html).toMatch(
      new RegExp(`[01] min \\(since <time (dateTime|datetime)="${submittedAt.toISOString()}"`),
    );

    // Moved again while the form waits: still the real wait, and the stored expiry is untouched.
    await advance(DAY_S);
    expect((await queueRow('moved-clock')).submitted).toBe(submittedAt.toISOString());
    expect((await queueRow('moved-clock')).waiting).toMatch(/^[01] min$/);
    expect(await stored('moved-clock')).toEqual({ expiresAt, submittedAt });
  });
});
