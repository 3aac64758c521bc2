// KYC end to end: documents, the form, operator decisions and the expiry sweep through the state machine;
// the events and delivery jobs each step writes; every illegal step, every bad field and another
// organisation's credentials refused with nothing written.
import { createHash } from 'node:crypto';

import { type Scope, signedRequestHeaders } from '@svc/protocol';

import { KYC_EXPIRY_LOCK, KycService } from '../src/kyc/kyc.service.js';
import { ApiFixture, type OrgSession, type TestResponse } from './support/app-fixture.js';

const PDF = Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << >>\n%%EOF\n', 'latin1');
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('IHDR'),
]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('JFIF')]);
const GIF = Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1');
const MAX_BYTES = 10 * 1024 * 1024;
const DAY_MS = 24 * 60 * 60 * 1000;

const FORM = {
  firstName: 'José',
  lastName: "O'Brien-Smith",
  dateOfBirth: '1990-02-28',
  nationality: 'IE',
  address: { line1: '1 Main Street', line2: 'Flat 2', city: 'Dublin', postalCode: 'D02 X285', country: 'IE' },
};

type KycState =
  | 'NONE'
  | 'KYC_PENDING'
  | 'KYC_DOC_UPLOADED'
  | 'KYC_FORM_SUBMITTED'
  | 'KYC_COMPLETED'
  | 'KYC_REJECTED'
  | 'KYC_RFI'
  | 'KYC_EXPIRED';
type Step = 'upload' | 'submit-form' | 'approve' | 'reject' | 'request-information' | 'expire';

interface KycViewData {
  orgUserId: string;
  orgId: number;
  kycState: KycState;
  kyc: boolean;
  userStatus: string;
  expiresAt: string | null;
  documents: Record<string, unknown>[];
  form: unknown;
  review: { eventType: string; message: string | null; at: string } | null;
}

interface FilePart {
  readonly content: Buffer;
  readonly type?: string;
  readonly name?: string;
  readonly field?: string;
}

interface UploadOptions {
  /** The text fields; default docCategory IDENTITY and docSubCategory PASSPORT. */
  readonly fields?: Record<string, string>;
  /** The file parts; default one PDF. */
  readonly files?: readonly FilePart[];
  /** Appended after the fields and files. */
  readonly extra?: (form: FormData) => void;
  /**
   * Query string without '?'. A signed upload without one sends the SHA-256 of its first file, which the
   * API key method requires.
   */
  readonly query?: string;
  readonly as?: 'signed' | 'bearer';
  readonly scopes?: readonly Scope[];
  /** Sent instead of a form. */
  readonly rawBody?: string;
  readonly contentType?: string;
}

describe('KYC', () => {
  let api: ApiFixture;
  let org: OrgSession;
  let other: OrgSession;
  let kyc: KycService;
  const tokens = new Map<string, Promise<string>>();

  beforeAll(async () => {
    api = await ApiFixture.start();
    org = await api.createOrg();
    other = await api.createOrg();
    kyc = api.app.get(KycService);
  });
  afterAll(() => api.close());

  // ---- helpers ------------------------------------------------------------------------------------------

  /** One token per organisation and scope set: the token endpoint allows 30 requests a minute. */
  function token(session: OrgSession, scopes: readonly Scope[]): Promise<string> {
    const key = `${session.orgId}:${scopes.join(' ')}`;
    let cached = tokens.get(key);
    if (!cached) {
      cached = session.token(scopes);
      tokens.set(key, cached);
    }
    return cached;
  }

  async function parse<T>(response: Response): Promise<TestResponse<T>> {
    const text = await response.text();
    let body: TestResponse<T>['body'];
    try {
      body = JSON.parse(text) as TestResponse<T>['body'];
    } catch {
      body = undefined as unknown as TestResponse<T>['body'];
    }
    return { status: response.status, headers: response.headers, text, body };
  }

  function uploadForm(options: UploadOptions): FormData {
    const form = new FormData();
    const fields = options.fields ?? { docCategory: 'IDENTITY', docSubCategory: 'PASSPORT' };
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    for (const file of options.files ?? [{ content: PDF }]) {
      form.append(
        file.field ?? 'file',
        new Blob([new Uint8Array(file.content)], { type: file.type ?? 'application/pdf' }),
        file.name ?? 'passport.pdf',
      );
    }
    options.extra?.(form);
    return form;
  }

  /** POST .../kyc/documents as multipart/form-data; bearer by default, or signed (the body signs as {}). */
  async function upload(
    session: OrgSession,
    orgUserId: string,
    options: UploadOptions = {},
  ): Promise<TestResponse<KycViewData>> {
    const path = `/api/v1/user/${orgUserId}/kyc/documents`;
    const firstFile = options.files?.[0]?.content ?? PDF;
    const query =
      options.query ??
      (options.as === 'signed'
        ? `sha256=${createHash('sha256').update(firstFile).digest('hex')}`
        : undefined);
    const headers: Record<string, string> =
      options.as === 'signed'
        ? { ...signedRequestHeaders({ path, query }, session) }
        : { authorization: `Bearer ${await token(session, options.scopes ?? ['MANAGE_USERS:WRITE'])}` };
    if (options.contentType) headers['content-type'] = options.contentType;
    const target = api.baseUrl + path + (query ? `?${query}` : '');
    const body = options.rawBody ?? uploadForm(options);
    return parse<KycViewData>(await fetch(target, { method: 'POST', headers, body }));
  }

  async function bearer<T = KycViewData>(
    session: OrgSession,
    method: string,
    path: string,
    body?: unknown,
    scopes: readonly Scope[] = method === 'GET' ? ['MANAGE_USERS:READ'] : ['MANAGE_USERS:WRITE'],
  ): Promise<TestResponse<T>> {
    return api.request<T>(method, path, {
      ...(body === undefined ? {} : { body }),
      headers: { authorization: `Bearer ${await token(session, scopes)}` },
    });
  }

  const getKyc = (orgUserId: string, session = org) =>
    bearer(session, 'GET', `/api/v1/user/${orgUserId}/kyc/`);
  const submitForm = (orgUserId: string, form: unknown = FORM, session = org) =>
    bearer(session, 'POST', `/api/v1/user/${orgUserId}/kyc/form`, form);
  const review = (
    step: 'approve' | 'reject' | 'request-information',
    orgUserId: string,
    body: unknown = defaultReviewBody(step),
    orgId: number | string = org.orgId,
    as: { token: string } = api.adminOperator,
  ) =>
    api.admin<KycViewData>('POST', `/api/v1/admin/orgs/${orgId}/users/${orgUserId}/kyc/${step}`, {
      body,
      operator: as,
    });

  function defaultReviewBody(step: 'approve' | 'reject' | 'request-information') {
    if (step === 'reject') return { reason: 'The passport is expired' };
    if (step === 'request-information') return { message: 'Send a proof of address under 3 months old' };
    return {};
  }

  async function createUser(orgUserId: string, session = org, kycDone = false): Promise<void> {
    const response = await bearer(session, 'POST', '/api/v1/user/', { orgUserId, kyc: kycDone, tnc: true });
    expect(response.status).toBe(200);
  }

  const ok = async <T>(pending: Promise<TestResponse<T>>): Promise<TestResponse<T>> => {
    const response = await pending;
    if (response.status !== 200) throw new Error(`expected 200, got ${response.status}: ${response.text}`);
    return response;
  };

  /** Moves the user's expiry into the past and runs the sweep, as the scheduler would. */
  async function expire(orgUserId: string, session = org): Promise<number | null> {
    await api.rows(
      "UPDATE users SET kyc_expires_at = now() - interval '1 minute' WHERE org_id = $1 AND org_user_id = $2",
      [session.orgId, orgUserId],
    );
    return kyc.expireDue();
  }

  /** A new user of `org` in `state`, reached through the api (KYC_PENDING, at rest only between two
   * events of one transaction, is set directly). */
  async function userIn(state: KycState, orgUserId: string): Promise<void> {
    await createUser(orgUserId, org, state === 'KYC_COMPLETED');
    if (state === 'NONE' || state === 'KYC_COMPLETED') return;
    await ok(upload(org, orgUserId));
    if (state === 'KYC_DOC_UPLOADED') return;
    if (state === 'KYC_PENDING') {
      await api.rows("UPDATE users SET kyc_state = 'KYC_PENDING' WHERE org_id = $1 AND org_user_id = $2", [
        org.orgId,
        orgUserId,
      ]);
      return;
    }
    if (state === 'KYC_EXPIRED') {
      expect(await expire(orgUserId)).toBe(1);
      return;
    }
    await ok(submitForm(orgUserId));
    if (state === 'KYC_FORM_SUBMITTED') return;
    const step = ({ KYC_REJECTED: 'reject', KYC_RFI: 'request-information' } as const)[state];
    await ok(review(step, orgUserId));
  }

  /** Runs `step` on the user the way its caller would. */
  function run(step: Step, orgUserId: string): Promise<TestResponse> {
    switch (step) {
      case 'upload':
        return upload(org, orgUserId);
      case 'submit-form':
        return submitForm(orgUserId);
      case 'expire':
        return expire(orgUserId).then((expired) => ({ status: expired === 1 ? 200 : 409 }) as TestResponse);
      default:
        return review(step, orgUserId);
    }
  }

  /** Everything a KYC step may write, to compare before and after a refused one. */
  async function snapshot() {
    const [row] = await api.rows(
      `SELECT (SELECT count(*)::int FROM kyc_documents) AS documents,
              (SELECT count(*)::int FROM events) AS events,
              ${api.queuedDeliveries} AS jobs,
              (SELECT count(*)::int FROM audit_log) AS audit,
              (SELECT json_agg(u ORDER BY u.id) FROM (
                 SELECT id, kyc_state, kyc, user_status, kyc_form, kyc_expires_at, updated_at FROM users) u) AS users`,
    );
    return row;
  }

  interface EventRow {
    id: string;
    entity: string;
    event_type: string;
    data: Record<string, unknown>;
  }

  /**
   * The user's KYC events in the order written. Events of one transaction share created_at (now() is the
   * transaction's start); the events table only grows here, so its rows lie in insertion order (ctid).
   */
  function kycEventsOf(orgUserId: string, session = org): Promise<EventRow[]> {
    return api.rows<EventRow>(
      `SELECT id, entity, event_type, data FROM events
        WHERE org_id = $1 AND data->>'orgUserId' = $2 AND event_type IS NOT NULL ORDER BY created_at, ctid`,
      [session.orgId, orgUserId],
    );
  }

  async function jobsFor(eventIds: readonly string[]): Promise<number> {
    return api.queuedFor(eventIds);
  }

  const record = (orgUserId: string, changes: Record<string, unknown> = {}, session = org) => ({
    orgUserId,
    orgId: session.orgId,
    kyc: false,
    tnc: true,
    userStatus: 'PENDING',
    userType: 'CONSUMER',
    ...changes,
  });

  async function userRow(orgUserId: string, session = org) {
    const [row] = await api.rows<{
      kyc_state: string;
      kyc: boolean;
      user_status: string;
      kyc_form: unknown;
      kyc_expires_at: Date | null;
    }>(
      'SELECT kyc_state, kyc, user_status, kyc_form, kyc_expires_at FROM users WHERE org_id = $1 AND org_user_id = $2',
      [session.orgId, orgUserId],
    );
    return row!;
  }

  function expectExpiryInDays(at: Date | string | null, days: number): void {
    expect(at).not.toBeNull();
    const delta = new Date(at!).getTime() - (Date.now() + days * DAY_MS);
    expect(Math.abs(delta)).toBeLessThan(60_000);
  }

  // ---- the process ------------------------------------------------------------------------------------

  describe('the process, step by step', () => {
    it('GET shows a new user at NONE, with no documents, form or review', async () => {
      await createUser('fresh');
      const response = await getKyc('fresh');
      expect(response.status).toBe(200);
      expect(response.body.data).toEqual({
        orgUserId: 'fresh',
        orgId: org.orgId,
        kycState: 'NONE',
        kyc: false,
        userStatus: 'PENDING',
        expiresAt: null,
        documents: [],
        form: null,
        review: null,
      });
    });

    it('the first upload starts the process: KYC_PENDING, then KYC_DOC_UPLOADED with the categories, each with its job', async () => {
      await createUser('first');
      const response = await upload(org, 'first', {
        fields: { docCategory: 'IDENTITY', docSubCategory: 'PASSPORT_FRONT' },
      });
      expect(response.status).toBe(200);
      const data = response.body.data!;
      expect(data).toMatchObject({ kycState: 'KYC_DOC_UPLOADED', kyc: false, userStatus: 'PENDING' });
      expectExpiryInDays(data.expiresAt, 30);
      expect(data.documents).toEqual([
        {
          id: expect.any(String) as string,
          docCategory: 'IDENTITY',
          docSubCategory: 'PASSPORT_FRONT',
          fileName: 'passport.pdf',
          contentType: 'application/pdf',
          sizeBytes: PDF.length,
          sha256: createHash('sha256').update(PDF).digest('hex'),
          createdAt: expect.any(String) as string,
        },
      ]);

      const events = await kycEventsOf('first');
      expect(
        events.map(({ entity, event_type, data: eventData }) => ({ entity, event_type, eventData })),
      ).toEqual([
        { entity: 'Users', event_type: 'KYC_PENDING', eventData: record('first') },
        {
          entity: 'Users',
          event_type: 'KYC_DOC_UPLOADED',
          eventData: record('first', { docCategory: 'IDENTITY', docSubCategory: 'PASSPORT_FRONT' }),
        },
      ]);
      expect(await jobsFor(events.map((event) => event.id))).toBe(2);

      const [stored] = await api.rows<{ content: Buffer; content_type: string; org_id: number }>(
        `SELECT d.content, d.content_type, d.org_id FROM kyc_documents d JOIN users u ON u.id = d.user_id
          WHERE u.org_user_id = 'first'`,
      );
      expect(stored).toMatchObject({ content_type: 'application/pdf', org_id: org.orgId });
      expect(stored!.content.equals(PDF)).toBe(true);
    });

    it('a later upload emits only KYC_DOC_UPLOADED, and the GET lists both documents without content', async () => {
      await createUser('second');
      await ok(upload(org, 'second'));
      const response = await upload(org, 'second', {
        fields: { docCategory: 'PROOF_OF_ADDRESS', docSubCategory: 'UTILITY_BILL' },
        files: [{ content: PNG, type: 'image/png', name: 'bill.png' }],
      });
      expect(response.status).toBe(200);
      expect((await kycEventsOf('second')).map((event) => event.event_type)).toEqual([
        'KYC_PENDING',
        'KYC_DOC_UPLOADED',
        'KYC_DOC_UPLOADED',
      ]);
      const view = (await getKyc('second')).body.data!;
      expect(view.documents.map((document) => [document.docCategory, document.contentType])).toEqual([
        ['IDENTITY', 'application/pdf'],
        ['PROOF_OF_ADDRESS', 'image/png'],
      ]);
      for (const document of view.documents) expect(document).not.toHaveProperty('content');
    });

    it('submitting the form emits KYC_FORM_SUBMITTED and stores the form as validated', async () => {
      await userIn('KYC_DOC_UPLOADED', 'former');
      const response = await submitForm('former');
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({ kycState: 'KYC_FORM_SUBMITTED', form: FORM, kyc: false });
      expectExpiryInDays(response.body.data!.expiresAt, 30);
      const events = await kycEventsOf('former');
      expect(events.at(-1)).toMatchObject({ event_type: 'KYC_FORM_SUBMITTED', data: record('former') });
      expect(await jobsFor([events.at(-1)!.id])).toBe(1);
      expect((await userRow('former')).kyc_form).toEqual(FORM);
    });

    it('the form is refused with 409 until a document was uploaded, and nothing is written', async () => {
      await createUser('no-docs');
      const before = await snapshot();
      const response = await submitForm('no-docs');
      expect(response.status).toBe(409);
      expect(response.body).toEqual({
        code: 409,
        data: null,
        error: 'Conflict: cannot submit the form while KYC is NONE: upload at least one document first',
      });
      expect(await snapshot()).toEqual(before);
    });

    it('approval emits KYC_COMPLETED, the only event with kyc true; the user becomes ACTIVE; audited', async () => {
      await userIn('KYC_FORM_SUBMITTED', 'approved');
      const alice = await api.createOperator('KYC_REVIEWER', { email: 'alice@ops.test' });
      const response = await review('approve', 'approved', { note: 'All good' }, org.orgId, alice);
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({
        kycState: 'KYC_COMPLETED',
        kyc: true,
        userStatus: 'ACTIVE',
        expiresAt: null,
        review: { eventType: 'KYC_COMPLETED', message: 'All good' },
      });
      const events = await kycEventsOf('approved');
      expect(events.map((event) => [event.event_type, event.data.kyc])).toEqual([
        ['KYC_PENDING', false],
        ['KYC_DOC_UPLOADED', false],
        ['KYC_FORM_SUBMITTED', false],
        ['KYC_COMPLETED', true],
      ]);
      expect(events.at(-1)!.data).toEqual(record('approved', { kyc: true, userStatus: 'ACTIVE' }));
      expect(await jobsFor([events.at(-1)!.id])).toBe(1);
      const audit = await api.rows(
        'SELECT actor, action, org_id, details FROM audit_log WHERE details->>$1 = $2',
        ['orgUserId', 'approved'],
      );
      expect(audit).toEqual([
        {
          actor: 'alice@ops.test',
          action: 'kyc.approve',
          org_id: org.orgId,
          details: {
            orgUserId: 'approved',
            eventType: 'KYC_COMPLETED',
            eventId: events.at(-1)!.id,
            note: 'All good',
          },
        },
      ]);
      const user = await api.request<{ kyc: boolean; userStatus: string }>('GET', '/api/v1/user/approved/', {
        headers: { authorization: `Bearer ${await token(org, ['MANAGE_USERS:READ'])}` },
      });
      expect(user.body.data).toMatchObject({ kyc: true, userStatus: 'ACTIVE', kycState: 'KYC_COMPLETED' });
    });

    it('rejection emits KYC_REJECTED and makes the user REJECTED; a new upload starts again at KYC_PENDING', async () => {
      await userIn('KYC_FORM_SUBMITTED', 'rejected');
      const response = await review('reject', 'rejected', { reason: 'Blurred photo' });
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({
        kycState: 'KYC_REJECTED',
        userStatus: 'REJECTED',
        expiresAt: null,
        review: { eventType: 'KYC_REJECTED', message: 'Blurred photo' },
      });
      expect((await kycEventsOf('rejected')).at(-1)!.data).toEqual(
        record('rejected', { userStatus: 'REJECTED' }),
      );
      const [audit] = await api.rows<{ action: string; details: object }>(
        "SELECT action, details FROM audit_log WHERE details->>'orgUserId' = 'rejected'",
      );
      expect(audit).toMatchObject({ action: 'kyc.reject', details: { reason: 'Blurred photo' } });

      await ok(upload(org, 'rejected'));
      const events = (await kycEventsOf('rejected')).slice(-2);
      expect(events.map((event) => [event.event_type, event.data.userStatus])).toEqual([
        ['KYC_PENDING', 'PENDING'],
        ['KYC_DOC_UPLOADED', 'PENDING'],
      ]);
    });

    it('a request for information emits KYC_RFI; the organisation reads the message, uploads and resubmits', async () => {
      await userIn('KYC_FORM_SUBMITTED', 'rfi');
      const response = await review('request-information', 'rfi', { message: 'Send the back of the card' });
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({ kycState: 'KYC_RFI', userStatus: 'PENDING' });
      expectExpiryInDays(response.body.data!.expiresAt, 30);
      const view = (await getKyc('rfi')).body.data!;
      expect(view.review).toEqual({
        eventType: 'KYC_RFI',
        message: 'Send the back of the card',
        at: expect.any(String) as string,
      });
      const [audit] = await api.rows<{ action: string }>(
        "SELECT action FROM audit_log WHERE details->>'orgUserId' = 'rfi'",
      );
      expect(audit!.action).toBe('kyc.request-information');

      await ok(upload(org, 'rfi', { fields: { docCategory: 'IDENTITY', docSubCategory: 'CARD_BACK' } }));
      await ok(submitForm('rfi'));
      expect((await kycEventsOf('rfi')).slice(-3).map((event) => event.event_type)).toEqual([
        'KYC_RFI',
        'KYC_DOC_UPLOADED',
        'KYC_FORM_SUBMITTED',
      ]);
    });

    it('keeps each decision in the user’s review history, not in the audit log, which nothing reads back', async () => {
      await userIn('KYC_FORM_SUBMITTED', 'history');
      await ok(review('request-information', 'history', { message: 'Send a clearer photo' }));
      await ok(upload(org, 'history'));
      await ok(submitForm('history'));
      const carol = await api.createOperator('KYC_REVIEWER', { email: 'carol@ops.test' });
      await ok(review('reject', 'history', { reason: 'Document expired' }, org.orgId, carol));
      const reviews = await api.rows<{
        event_type: string;
        message: string;
        reviewer: string;
        event_id: string;
      }>(
        `SELECT r.event_type, r.message, r.reviewer, r.event_id FROM kyc_reviews r JOIN users u ON u.id = r.user_id
          WHERE u.org_user_id = 'history' ORDER BY r.id`,
      );
      expect(reviews.map(({ event_type, message, reviewer }) => [event_type, message, reviewer])).toEqual([
        ['KYC_RFI', 'Send a clearer photo', 'admin@ops.test'],
        ['KYC_REJECTED', 'Document expired', 'carol@ops.test'],
      ]);
      const rejected = (await kycEventsOf('history')).at(-1);
      expect(rejected).toMatchObject({ event_type: 'KYC_REJECTED', id: reviews[1]!.event_id });

      await api.rows("DELETE FROM audit_log WHERE details->>'orgUserId' = 'history'");
      expect((await getKyc('history')).body.data!.review).toEqual({
        eventType: 'KYC_REJECTED',
        message: 'Document expired',
        at: expect.any(String) as string,
      });
    });
  });

  // ---- the state machine, through the api -------------------------------------------------------------

  describe('every legal transition writes its events, each with its job', () => {
    const docs = { docCategory: 'IDENTITY', docSubCategory: 'PASSPORT' };
    it.each<[KycState, Step, string[], Record<string, unknown>]>([
      ['NONE', 'upload', ['KYC_PENDING', 'KYC_DOC_UPLOADED'], {}],
      ['KYC_PENDING', 'upload', ['KYC_DOC_UPLOADED'], {}],
      ['KYC_PENDING', 'submit-form', ['KYC_FORM_SUBMITTED'], {}],
      ['KYC_DOC_UPLOADED', 'upload', ['KYC_DOC_UPLOADED'], {}],
      ['KYC_DOC_UPLOADED', 'submit-form', ['KYC_FORM_SUBMITTED'], {}],
      ['KYC_RFI', 'upload', ['KYC_DOC_UPLOADED'], {}],
      ['KYC_RFI', 'submit-form', ['KYC_FORM_SUBMITTED'], {}],
      ['KYC_FORM_SUBMITTED', 'approve', ['KYC_COMPLETED'], { kyc: true, userStatus: 'ACTIVE' }],
      ['KYC_FORM_SUBMITTED', 'reject', ['KYC_REJECTED'], { userStatus: 'REJECTED' }],
      ['KYC_FORM_SUBMITTED', 'request-information', ['KYC_RFI'], {}],
      ['KYC_REJECTED', 'upload', ['KYC_PENDING', 'KYC_DOC_UPLOADED'], {}],
      // The documents of the earlier round count: the form alone may start the next one.
      ['KYC_REJECTED', 'submit-form', ['KYC_PENDING', 'KYC_FORM_SUBMITTED'], {}],
      ['KYC_EXPIRED', 'upload', ['KYC_PENDING', 'KYC_DOC_UPLOADED'], {}],
      ['KYC_EXPIRED', 'submit-form', ['KYC_PENDING', 'KYC_FORM_SUBMITTED'], {}],
      ['KYC_PENDING', 'expire', ['KYC_EXPIRED'], {}],
      ['KYC_DOC_UPLOADED', 'expire', ['KYC_EXPIRED'], {}],
      ['KYC_RFI', 'expire', ['KYC_EXPIRED'], {}],
      ['KYC_FORM_SUBMITTED', 'expire', ['KYC_EXPIRED'], {}],
    ])('%s, %s: %j', async (state, step, expected, last) => {
      const orgUserId = `legal-${state}-${step}`;
      await userIn(state, orgUserId);
      const before = (await kycEventsOf(orgUserId)).length;
      const response = await run(step, orgUserId);
      expect(response.status).toBe(200);

      const events = (await kycEventsOf(orgUserId)).slice(before);
      expect(events.map((event) => event.event_type)).toEqual(expected);
      for (const event of events) {
        const isLast = event === events.at(-1);
        expect(event.entity).toBe('Users');
        expect(event.data).toEqual(
          record(orgUserId, {
            ...(isLast ? last : {}),
            ...(event.event_type === 'KYC_DOC_UPLOADED' ? docs : {}),
          }),
        );
      }
      expect(await jobsFor(events.map((event) => event.id))).toBe(events.length);

      const user = await userRow(orgUserId);
      expect(user.kyc_state).toBe(expected.at(-1));
      if (['KYC_COMPLETED', 'KYC_REJECTED', 'KYC_EXPIRED'].includes(user.kyc_state)) {
        expect(user.kyc_expires_at).toBeNull();
      } else {
        expectExpiryInDays(user.kyc_expires_at, 30);
      }
    });
  });

  describe('every illegal transition answers 409 naming the state and the step, and writes nothing', () => {
    const names: Record<Exclude<Step, 'expire'>, string> = {
      upload: 'upload a document',
      'submit-form': 'submit the form',
      approve: 'approve',
      reject: 'reject',
      'request-information': 'request information',
    };
    const operatorSteps = ['approve', 'reject', 'request-information'] as const;
    const cases: [KycState, Exclude<Step, 'expire'>][] = [
      ...(
        ['NONE', 'KYC_PENDING', 'KYC_DOC_UPLOADED', 'KYC_RFI', 'KYC_REJECTED', 'KYC_EXPIRED'] as const
      ).flatMap((state) => operatorSteps.map((step) => [state, step] as [KycState, Exclude<Step, 'expire'>])),
      ['KYC_FORM_SUBMITTED', 'upload'],
      ['KYC_FORM_SUBMITTED', 'submit-form'],
      ['KYC_COMPLETED', 'upload'],
      ['KYC_COMPLETED', 'submit-form'],
      ...operatorSteps.map((step) => ['KYC_COMPLETED', step] as [KycState, Exclude<Step, 'expire'>]),
    ];

    it.each(cases)('%s, %s', async (state, step) => {
      const orgUserId = `illegal-${state}-${step}`;
      await userIn(state, orgUserId);
      const before = await snapshot();
      const response = await run(step, orgUserId);
      expect(response.status).toBe(409);
      expect(response.body).toMatchObject({ code: 409, data: null });
      expect(response.body.error).toContain(`Conflict: cannot ${names[step]} while KYC is ${state}`);
      expect(await snapshot()).toEqual(before);
    });

    it('the sweep leaves users that are not due, and states that do not expire, alone', async () => {
      await userIn('KYC_DOC_UPLOADED', 'not-due');
      await userIn('KYC_COMPLETED', 'done-long-ago');
      await userIn('KYC_REJECTED', 'rejected-long-ago');
      await api.rows(
        `UPDATE users SET kyc_expires_at = now() - interval '1 day'
          WHERE org_id = $1 AND org_user_id IN ('done-long-ago', 'rejected-long-ago')`,
        [org.orgId],
      );
      const before = await snapshot();
      expect(await kyc.expireDue()).toBe(0);
      expect(await snapshot()).toEqual(before);
    });
  });

  // ---- the expiry sweep --------------------------------------------------------------------------------

  describe('scheduled expiry', () => {
    it('expires every due user in one sweep with its KYC_EXPIRED event; a second sweep finds nothing', async () => {
      const due = ['due-1', 'due-2', 'due-3'];
      for (const orgUserId of due) await userIn('KYC_DOC_UPLOADED', orgUserId);
      await api.rows(
        "UPDATE users SET kyc_expires_at = now() - interval '1 second' WHERE org_id = $1 AND org_user_id = ANY($2)",
        [org.orgId, due],
      );
      expect(await kyc.expireDue()).toBe(3);
      for (const orgUserId of due) {
        const [event] = (await kycEventsOf(orgUserId)).slice(-1);
        expect(event).toMatchObject({ event_type: 'KYC_EXPIRED', data: record(orgUserId) });
        expect(await jobsFor([event!.id])).toBe(1);
        expect(await userRow(orgUserId)).toMatchObject({ kyc_state: 'KYC_EXPIRED', kyc_expires_at: null });
      }
      expect(await kyc.expireDue()).toBe(0);
    });

    it('is a singleton: while another instance holds the lock, a sweep does nothing', async () => {
      await userIn('KYC_DOC_UPLOADED', 'locked-out');
      await api.rows(
        "UPDATE users SET kyc_expires_at = now() - interval '1 second' WHERE org_id = $1 AND org_user_id = 'locked-out'",
        [org.orgId],
      );
      const holder = api.dataSource.createQueryRunner();
      await holder.startTransaction();
      try {
        await holder.query('SELECT pg_advisory_xact_lock($1::bigint)', [KYC_EXPIRY_LOCK]);
        expect(await kyc.expireDue()).toBeNull();
        expect((await userRow('locked-out')).kyc_state).toBe('KYC_DOC_UPLOADED');
      } finally {
        await holder.rollbackTransaction();
        await holder.release();
      }
      expect(await kyc.expireDue()).toBe(1);
    });

    it('runs no timer in tests unless asked: KYC_EXPIRY_SWEEP_SECONDS defaults to 0 under NODE_ENV=test', () => {
      expect(api.config.kycExpirySweepSeconds).toBe(0);
      expect(api.config.kycExpiryDays).toBe(30);
    });
  });

  // ---- concurrency -----------------------------------------------------------------------------------

  describe('concurrent steps serialise on the user row', () => {
    it('two decisions at once: one wins, the other gets 409; one event, one audit row', async () => {
      await userIn('KYC_FORM_SUBMITTED', 'race-review');
      const before = (await kycEventsOf('race-review')).length;
      const statuses = (
        await Promise.all([review('approve', 'race-review'), review('reject', 'race-review')])
      ).map((response) => response.status);
      expect(statuses.sort()).toEqual([200, 409]);
      expect((await kycEventsOf('race-review')).length).toBe(before + 1);
      const audit = await api.rows("SELECT 1 FROM audit_log WHERE details->>'orgUserId' = 'race-review'");
      expect(audit).toHaveLength(1);
    });

    it('two first uploads at once: one KYC_PENDING, two KYC_DOC_UPLOADED', async () => {
      await createUser('race-upload');
      const responses = await Promise.all([upload(org, 'race-upload'), upload(org, 'race-upload')]);
      expect(responses.map((response) => response.status)).toEqual([200, 200]);
      // Sorted: created_at is each transaction's start, and the one that waited for the lock may have
      // started first.
      expect((await kycEventsOf('race-upload')).map((event) => event.event_type).sort()).toEqual([
        'KYC_DOC_UPLOADED',
        'KYC_DOC_UPLOADED',
        'KYC_PENDING',
      ]);
    });
  });

  // ---- uploads: types, sizes, signatures ---------------------------------------------------------------

  describe('document files', () => {
    it('accepts PDF, JPEG and PNG by their content, also when declared application/octet-stream', async () => {
      await createUser('types');
      for (const [content, type, stored] of [
        [JPEG, 'image/jpeg', 'image/jpeg'],
        [PNG, 'image/png', 'image/png'],
        [PDF, 'application/octet-stream', 'application/pdf'],
        [PNG, 'image/png; charset=binary', 'image/png'],
      ] as const) {
        const response = await upload(org, 'types', { files: [{ content, type, name: 'doc' }] });
        expect(response.status).toBe(200);
        expect(response.body.data!.documents.at(-1)!.contentType).toBe(stored);
      }
    });

    it('accepts a file of exactly 10 MiB and refuses one byte more with 413, storing nothing', async () => {
      await createUser('sizes');
      const limit = Buffer.concat([PDF, Buffer.alloc(MAX_BYTES - PDF.length, 0x20)]);
      expect((await upload(org, 'sizes', { files: [{ content: limit }] })).status).toBe(200);
      const before = await snapshot();
      const response = await upload(org, 'sizes', {
        files: [{ content: Buffer.concat([limit, Buffer.from(' ')]) }],
      });
      expect(response.status).toBe(413);
      expect(response.body).toEqual({
        code: 413,
        data: null,
        error: 'Payload Too Large: file must be at most 10485760 bytes (10 MiB)',
      });
      expect(await snapshot()).toEqual(before);
    });

    it('with the API key: the upload is signed with the body {} and the query; sha256 there binds the file', async () => {
      await createUser('signed-upload');
      const sha = (content: Buffer) => createHash('sha256').update(content).digest('hex');
      // Two different files in the same second: distinct signatures thanks to their sha256.
      const responses = await Promise.all(
        [PDF, PNG].map((content, index) =>
          upload(org, 'signed-upload', {
            as: 'signed',
            query: `sha256=${sha(content)}`,
            files: [{ content, type: index === 0 ? 'application/pdf' : 'image/png' }],
          }),
        ),
      );
      expect(responses.map((response) => response.status)).toEqual([200, 200]);
      const view = (await getKyc('signed-upload')).body.data!;
      expect(view.documents.map((document) => document.sha256).sort()).toEqual([sha(PDF), sha(PNG)].sort());
    });

    it('with the API key, sha256 is required and must be that of the bytes received; nothing is stored otherwise', async () => {
      await createUser('signed-no-sha');
      const before = await snapshot();
      const missing = await upload(org, 'signed-no-sha', { as: 'signed', query: '' });
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual({
        code: 400,
        data: null,
        error:
          'Bad Request: sha256 is required with the API key signature: send the SHA-256 of the file in the query',
      });
      const other = createHash('sha256').update(PNG).digest('hex');
      const different = await upload(org, 'signed-no-sha', { as: 'signed', query: `sha256=${other}` });
      expect(different.status).toBe(400);
      expect(different.body.error).toContain('sha256 does not match the file');
      expect(await snapshot()).toEqual(before);
      // With a bearer token it stays optional.
      expect((await upload(org, 'signed-no-sha')).status).toBe(200);
    });
  });

  // ---- bad input ---------------------------------------------------------------------------------------

  describe('bad input on every field answers 400 (413, 415) naming it, and stores nothing', () => {
    // Each in a state where the same request with good input would succeed.
    beforeAll(async () => {
      await createUser('bad-input');
      await userIn('KYC_DOC_UPLOADED', 'form-bad');
      await userIn('KYC_FORM_SUBMITTED', 'review-bad');
    });

    const long = 'x'.repeat(65);
    it.each<[string, UploadOptions, number, string]>([
      ['no docCategory', { fields: { docSubCategory: 'PASSPORT' } }, 400, 'docCategory is required'],
      [
        'an empty docCategory',
        { fields: { docCategory: '', docSubCategory: 'P' } },
        400,
        'docCategory must be 1 to 64 characters among letters, digits and _ . -',
      ],
      [
        'a docCategory with a space',
        { fields: { docCategory: 'ID CARD', docSubCategory: 'P' } },
        400,
        'docCategory must be 1 to 64',
      ],
      [
        'a docCategory of 65 characters',
        { fields: { docCategory: long, docSubCategory: 'P' } },
        400,
        'docCategory must be 1 to 64',
      ],
      [
        'docCategory twice',
        { extra: (form) => form.append('docCategory', 'AGAIN') },
        400,
        'docCategory must be a string',
      ],
      [
        'a docCategory over 1 KiB',
        { fields: { docCategory: 'x'.repeat(1025), docSubCategory: 'P' } },
        400,
        'docCategory: Field value too long',
      ],
      ['no docSubCategory', { fields: { docCategory: 'IDENTITY' } }, 400, 'docSubCategory is required'],
      [
        'a bad docSubCategory',
        { fields: { docCategory: 'IDENTITY', docSubCategory: 'a/b' } },
        400,
        'docSubCategory must be 1 to 64',
      ],
      [
        'an unknown field',
        { extra: (form) => form.append('comment', 'hi') },
        400,
        'property comment should not exist',
      ],
      ['no file', { files: [] }, 400, 'file is required: send one file in the form field "file"'],
      ['an empty file', { files: [{ content: Buffer.alloc(0) }] }, 400, 'file must not be empty'],
      [
        'two files',
        { files: [{ content: PDF }, { content: PDF }] },
        400,
        'unexpected file in the field "file": send exactly one file',
      ],
      [
        'a file in another field',
        { files: [{ content: PDF, field: 'document' }] },
        400,
        'unexpected file in the field "document"',
      ],
      [
        'a file name over 255 characters',
        { files: [{ content: PDF, name: 'n'.repeat(256) }] },
        400,
        'file name must be at most 255 characters',
      ],
      [
        'a GIF',
        { files: [{ content: GIF, type: 'image/gif' }] },
        415,
        'file type image/gif is not accepted: send application/pdf, image/jpeg, image/png',
      ],
      [
        'a GIF declared as a PDF',
        { files: [{ content: GIF }] },
        415,
        'file content is not application/pdf, image/jpeg, image/png',
      ],
      [
        'unknown bytes as octet-stream',
        { files: [{ content: Buffer.from('hello'), type: 'application/octet-stream' }] },
        415,
        'file content is not',
      ],
      [
        'a PNG declared as a PDF',
        { files: [{ content: PNG }] },
        415,
        'file is declared application/pdf but its content is image/png',
      ],
      ['a malformed sha256', { query: 'sha256=ABC' }, 400, 'sha256 must be 64 lowercase hexadecimal digits'],
      [
        'a sha256 of other content',
        { query: `sha256=${'0'.repeat(64)}` },
        400,
        'sha256 does not match the file',
      ],
      ['an unknown query parameter', { query: 'x=1' }, 400, 'property x should not exist'],
      [
        'a JSON body',
        { rawBody: '{"docCategory":"A"}', contentType: 'application/json' },
        415,
        'send multipart/form-data',
      ],
      [
        'a truncated multipart body',
        {
          rawBody: '--b\r\nContent-Disposition: form-data; name="docCategory"\r\n\r\nA',
          contentType: 'multipart/form-data; boundary=b',
        },
        400,
        'multipart body',
      ],
    ])('upload with %s', async (_name, options, status, message) => {
      const before = await snapshot();
      const response = await upload(org, 'bad-input', options);
      expect(response.status).toBe(status);
      expect(response.body).toMatchObject({ code: status, data: null });
      expect(response.body.error).toContain(message);
      expect(await snapshot()).toEqual(before);
    });

    const withField = (path: string, value: unknown) => {
      const form = structuredClone(FORM) as Record<string, unknown>;
      const [outer, inner] = path.split('.') as [string, string | undefined];
      const target = inner === undefined ? form : (form[outer] as Record<string, unknown>);
      const key = inner ?? outer;
      if (value === undefined) Reflect.deleteProperty(target, key);
      else target[key] = value;
      return form;
    };
    const today = new Date().toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + DAY_MS).toISOString().slice(0, 10);

    it.each<[string, unknown, string]>([
      ['firstName', undefined, 'firstName is required'],
      ['firstName', 7, 'firstName must be a string'],
      ['firstName', '', 'firstName must be 1 to 100 characters'],
      ['firstName', 'a'.repeat(101), 'firstName must be 1 to 100 characters'],
      ['firstName', '1337', 'firstName must start with a letter and hold only letters'],
      ['firstName', 'Ann<b>', 'firstName must start with a letter'],
      ['lastName', undefined, 'lastName is required'],
      ['lastName', null, 'lastName is required'],
      ['lastName', '-Smith', 'lastName must start with a letter'],
      ['dateOfBirth', undefined, 'dateOfBirth is required'],
      [
        'dateOfBirth',
        '1990-13-01',
        'dateOfBirth must be a real date written YYYY-MM-DD, from 1900-01-01 up to today',
      ],
      ['dateOfBirth', '1990-02-30', 'dateOfBirth must be a real date'],
      ['dateOfBirth', '28/02/1990', 'dateOfBirth must be a real date'],
      ['dateOfBirth', '1990-02-28T00:00:00Z', 'dateOfBirth must be a real date'],
      ['dateOfBirth', '1899-12-31', 'dateOfBirth must be a real date'],
      ['dateOfBirth', tomorrow, 'dateOfBirth must be a real date'],
      ['dateOfBirth', 19900228, 'dateOfBirth must be a real date'],
      ['nationality', undefined, 'nationality is required'],
      ['nationality', 'ie', 'nationality must be an ISO 3166-1 alpha-2 code in capitals'],
      ['nationality', 'XX', 'nationality must be an ISO 3166-1 alpha-2 code'],
      ['nationality', 'IRL', 'nationality must be an ISO 3166-1 alpha-2 code'],
      ['address', undefined, 'address is required'],
      ['address', 'Dublin', 'address must be an object'],
      ['address', [], 'address must be an object'],
      ['address.line1', undefined, 'address.line1 is required'],
      ['address.line1', '   ', 'address.line1 must not be blank'],
      ['address.line1', 'l'.repeat(201), 'address.line1 must be 1 to 200 characters'],
      ['address.line2', '', 'address.line2 must be 1 to 200 characters'],
      ['address.line2', 5, 'address.line2 must be a string'],
      ['address.city', undefined, 'address.city is required'],
      ['address.city', ' ', 'address.city must not be blank'],
      ['address.postalCode', undefined, 'address.postalCode is required'],
      ['address.postalCode', '#1', 'address.postalCode must be 1 to 15 letters, digits, spaces or hyphens'],
      ['address.postalCode', '1'.repeat(16), 'address.postalCode must be 1 to 15'],
      ['address.country', undefined, 'address.country is required'],
      ['address.country', 'ZZ', 'address.country must be an ISO 3166-1 alpha-2 code'],
      ['address.extra', 'x', 'address.extra: property extra should not exist'],
      ['email', 'a@b.c', 'property email should not exist'],
    ])('form with %s = %j', async (field, value, message) => {
      const before = await snapshot();
      const response = await submitForm('form-bad', withField(field, value));
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ code: 400, data: null });
      expect(response.body.error).toContain(message);
      expect(await snapshot()).toEqual(before);
    });

    it('accepts a dateOfBirth of today and no line2', async () => {
      await userIn('KYC_DOC_UPLOADED', 'form-edge');
      const form = withField('address.line2', undefined);
      form.dateOfBirth = today;
      const response = await submitForm('form-edge', form);
      expect(response.status).toBe(200);
      expect((await userRow('form-edge')).kyc_form).toEqual(form);
    });

    it.each([
      ['no body', undefined],
      ['an array', [FORM]],
      ['invalid JSON', '{"firstName":'],
    ])('form with %s', async (_name, body) => {
      const before = await snapshot();
      const response = await api.request('POST', '/api/v1/user/form-bad/kyc/form', {
        ...(typeof body === 'string' ? { rawBody: body } : body === undefined ? {} : { body }),
        headers: { authorization: `Bearer ${await token(org, ['MANAGE_USERS:WRITE'])}` },
      });
      expect(response.status).toBe(400);
      expect(await snapshot()).toEqual(before);
    });

    it.each<['approve' | 'reject' | 'request-information', unknown, string]>([
      ['reject', {}, 'reason is required'],
      ['reject', { reason: '' }, 'reason must be 1 to 1000 characters'],
      ['reject', { reason: '  ' }, 'reason must not be blank'],
      ['reject', { reason: 'r'.repeat(1001) }, 'reason must be 1 to 1000 characters'],
      ['reject', { reason: 5 }, 'reason must be a string'],
      ['reject', { reason: 'x', severity: 'high' }, 'property severity should not exist'],
      ['request-information', {}, 'message is required'],
      ['request-information', { message: '' }, 'message must be 1 to 2000 characters'],
      ['request-information', { message: '\n\t' }, 'message must not be blank'],
      ['request-information', { message: 'm'.repeat(2001) }, 'message must be 1 to 2000 characters'],
      ['request-information', { message: ['a'] }, 'message must be a string'],
      ['approve', { note: '' }, 'note must be 1 to 1000 characters'],
      ['approve', { note: ' ' }, 'note must not be blank'],
      ['approve', { note: 1 }, 'note must be a string'],
      ['approve', { approved: true }, 'property approved should not exist'],
    ])('%s with %j', async (step, body, message) => {
      const before = await snapshot();
      const response = await review(step, 'review-bad', body);
      expect(response.status).toBe(400);
      expect(response.body.error).toContain(message);
      expect(await snapshot()).toEqual(before);
    });

    it.each(['abc', '0', '-1', '1.5', '99999999999'])('operator routes with orgId %s', async (orgId) => {
      const before = await snapshot();
      const response = await review('approve', 'review-bad', {}, orgId);
      expect(response.status).toBe(400);
      expect(response.body.error).toContain('orgId must be an integer from 1 to 2147483647');
      expect(await snapshot()).toEqual(before);
    });
  });

  // ---- who may do what ---------------------------------------------------------------------------------

  describe('tenant isolation', () => {
    beforeAll(async () => {
      await userIn('KYC_FORM_SUBMITTED', 'mine');
      await createUser('same-id');
      await createUser('same-id', other);
    });

    it.each(['signed', 'bearer'] as const)(
      "another organisation's %s credentials get 404 on every KYC endpoint of my user, and write nothing",
      async (method) => {
        const before = await snapshot();
        const call = (verb: string, path: string, body?: unknown) =>
          method === 'signed'
            ? other.signed(verb, path, body === undefined ? {} : { body })
            : bearer(other, verb, path, body, ['MANAGE_USERS:READWRITE']);
        const responses = [
          await call('GET', '/api/v1/user/mine/kyc/'),
          await call('POST', '/api/v1/user/mine/kyc/form', FORM),
          await upload(other, 'mine', { as: method, scopes: ['MANAGE_USERS:READWRITE'] }),
        ];
        for (const response of responses) {
          expect(response.status).toBe(404);
          expect(response.body).toEqual({
            code: 404,
            data: null,
            error: 'Not Found: no user with orgUserId "mine"',
          });
        }
        expect(await snapshot()).toEqual(before);
      },
    );

    it('an operator naming the wrong organisation gets 404 and changes nothing', async () => {
      const before = await snapshot();
      for (const step of ['approve', 'reject', 'request-information'] as const) {
        const response = await review(step, 'mine', defaultReviewBody(step), other.orgId);
        expect(response.status).toBe(404);
      }
      expect(await snapshot()).toEqual(before);
    });

    it('the same orgUserId in two organisations: each acts on its own user only', async () => {
      await ok(upload(other, 'same-id'));
      expect((await getKyc('same-id', other)).body.data).toMatchObject({
        orgId: other.orgId,
        kycState: 'KYC_DOC_UPLOADED',
      });
      expect((await getKyc('same-id', org)).body.data).toMatchObject({ orgId: org.orgId, kycState: 'NONE' });
      expect(await kycEventsOf('same-id', org)).toEqual([]);
      expect((await kycEventsOf('same-id', other)).map((event) => event.data.orgId)).toEqual([
        other.orgId,
        other.orgId,
      ]);
    });
  });

  describe('credentials and scopes', () => {
    beforeAll(() => createUser('scoped'));

    it('reads need MANAGE_USERS:READ, writes MANAGE_USERS:WRITE (READWRITE grants both)', async () => {
      const read = ['MANAGE_USERS:READ'] as const;
      const write = ['MANAGE_USERS:WRITE'] as const;
      const denied = [
        await upload(org, 'scoped', { scopes: read }),
        await bearer(org, 'POST', '/api/v1/user/scoped/kyc/form', FORM, read),
        await bearer(org, 'GET', '/api/v1/user/scoped/kyc/', undefined, write),
      ];
      expect(denied.map((response) => [response.status, response.body.status])).toEqual([
        [401, 401],
        [401, 401],
        [401, 401],
      ]);
      expect(denied.map((response) => response.headers.get('www-authenticate'))).toEqual([
        'Bearer error="insufficient_scope", scope="MANAGE_USERS:WRITE"',
        'Bearer error="insufficient_scope", scope="MANAGE_USERS:WRITE"',
        'Bearer error="insufficient_scope", scope="MANAGE_USERS:READ"',
      ]);
      expect((await getKyc('scoped')).status).toBe(200);
      expect((await upload(org, 'scoped', { scopes: ['MANAGE_USERS:READWRITE'] })).status).toBe(200);
      expect((await org.signed('GET', '/api/v1/user/scoped/kyc/')).status).toBe(200);
    });

    it('operator routes refuse organisation credentials and a missing or wrong admin token', async () => {
      await userIn('KYC_FORM_SUBMITTED', 'admin-only');
      const before = await snapshot();
      const path = `/api/v1/admin/orgs/${org.orgId}/users/admin-only/kyc/approve`;
      const responses = [
        await org.signed('POST', path, { body: {} }),
        await bearer(org, 'POST', path, {}, ['MANAGE_USERS:READWRITE']),
        await api.request('POST', path, { body: {} }),
        await api.request('POST', path, {
          body: {},
          headers: { authorization: 'Bearer not-the-admin-token' },
        }),
      ];
      expect(responses.map((response) => response.status)).toEqual([401, 401, 401, 401]);
      expect(await snapshot()).toEqual(before);
    });

    it('organisation routes refuse the admin token', async () => {
      const response = await api.admin('GET', '/api/v1/user/scoped/kyc/');
      expect(response.status).toBe(401);
    });
  });
});
