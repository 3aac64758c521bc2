// Sandbox organisations end to end: created by an operator, their test clock (KYC expiry follows it), the
// magic clientOrderIds and orgUserIds, and triggered events; and a live organisation, for which none of it
// exists (404) and the magic values are ordinary values.
import { ORDER_REJECTION_REASONS, type Scope } from '@svc/protocol';

import { ORDER_MAGIC_PREFIXES } from '../src/sandbox/magic-values.js';
import { ApiFixture, type OrgSession, type TestResponse } from './support/app-fixture.js';

const PDF = Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << >>\n%%EOF\n', 'latin1');
const FORM = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  dateOfBirth: '1990-02-28',
  nationality: 'GB',
  address: { line1: '1 Main Street', city: 'London', postalCode: 'N1 1AA', country: 'GB' },
};
const DAY_S = 24 * 60 * 60;

interface Clock {
  orgId: number;
  now: string;
  offsetMs: number;
}

describe('sandbox organisations', () => {
  let api: ApiFixture;
  let sandbox: OrgSession;
  let live: OrgSession;
  let serial = 0;

  beforeAll(async () => {
    api = await ApiFixture.start();
    sandbox = await api.createOrg({ environment: 'SANDBOX' });
    live = await api.createOrg();
    await api.rows(
      "INSERT INTO prices (symbol, price) VALUES ('BTC_EUR', '50000') ON CONFLICT (symbol) DO UPDATE SET price = EXCLUDED.price",
    );
    await api.rows(`UPDATE organisations SET policy = policy || '{"enabledAssets":["BTC"]}'::jsonb`);
  });
  afterAll(() => api.close());

  const id = (prefix: string) => `${prefix}${++serial}-${Date.now().toString(36)}`;

  async function user(session: OrgSession, orgUserId: string, kyc = false): Promise<void> {
    const created = await session.signed('POST', '/api/v1/user/', { body: { orgUserId, kyc, tnc: true } });
    expect(created.status).toBe(200);
  }

  async function upload(session: OrgSession, orgUserId: string): Promise<void> {
    const token = await session.token(['MANAGE_USERS:WRITE']);
    const form = new FormData();
    form.append('docCategory', 'IDENTITY');
    form.append('docSubCategory', 'PASSPORT');
    form.append('file', new Blob([new Uint8Array(PDF)], { type: 'application/pdf' }), 'passport.pdf');
    const response = await fetch(`${api.baseUrl}/api/v1/user/${orgUserId}/kyc/documents`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    expect(response.status).toBe(200);
  }

  /** A user of `session` taken to the form: answers the KYC view after the form. */
  async function throughForm(session: OrgSession, orgUserId: string) {
    await user(session, orgUserId);
    await upload(session, orgUserId);
    const form = await session.signed<{ kycState: string; expiresAt: string | null }>(
      'POST',
      `/api/v1/user/${orgUserId}/kyc/form`,
      { body: FORM },
    );
    expect(form.status).toBe(200);
    return form.body.data!;
  }

  const kycEventsOf = async (session: OrgSession, orgUserId: string) =>
    (
      await api.rows<{ event_type: string }>(
        "SELECT event_type FROM events WHERE org_id = $1 AND data->>'orgUserId' = $2 AND event_type IS NOT NULL ORDER BY created_at, position",
        [session.orgId, orgUserId],
      )
    ).map((row) => row.event_type);

  const advance = (body: unknown, session = sandbox): Promise<TestResponse<Clock>> =>
    session.signed<Clock>('POST', '/api/v1/sandbox/clock', { body });

  describe('created by an operator', () => {
    it('as SANDBOX through the admin API: answered, stored, audited, and shown in the org record', async () => {
      const created = await api.admin<{ orgId: number; environment: string }>('POST', '/api/v1/admin/orgs', {
        body: {
          name: 'Sandbox Co',
          kycDomain: 'sandbox.example',
          plan: 'ENTERPRISE',
          environment: 'SANDBOX',
        },
      });
      expect(created.status).toBe(200);
      expect(created.body.data).toMatchObject({ environment: 'SANDBOX' });
      const orgId = created.body.data!.orgId;
      expect(await api.rows('SELECT environment FROM organisations WHERE id = $1', [orgId])).toEqual([
        { environment: 'SANDBOX' },
      ]);
      const [audit] = await api.rows<{ details: Record<string, unknown> }>(
        "SELECT details FROM audit_log WHERE org_id = $1 AND action = 'org.create'",
        [orgId],
      );
      expect(audit?.details).toMatchObject({ environment: 'SANDBOX' });
      const got = await api.admin<{ environment: string }>('GET', `/api/v1/admin/orgs/${orgId}`);
      expect(got.body.data?.environment).toBe('SANDBOX');
      const own = await sandbox.signed<{ environment: string }>('GET', '/api/v1/org/');
      expect(own.body.data?.environment).toBe('SANDBOX');
    });

    it('LIVE by default; a bad environment is a 400 naming it, with nothing stored', async () => {
      const plain = await api.admin<{ environment: string }>('POST', '/api/v1/admin/orgs', {
        body: { name: 'Live Co', kycDomain: 'live.example', plan: 'STANDARD' },
      });
      expect(plain.body.data?.environment).toBe('LIVE');
      const [before] = await api.rows<{ n: number }>('SELECT count(*)::int AS n FROM organisations');
      const bad = await api.admin('POST', '/api/v1/admin/orgs', {
        body: { name: 'Bad Co', kycDomain: 'bad.example', plan: 'STANDARD', environment: 'TEST' },
      });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toContain('environment must be one of LIVE, SANDBOX');
      expect(await api.rows('SELECT count(*)::int AS n FROM organisations')).toEqual([before]);
    });

    it('fixed at creation: an update naming environment is refused and changes nothing', async () => {
      const refused = await api.admin('PATCH', `/api/v1/admin/orgs/${live.orgId}`, {
        body: { environment: 'SANDBOX' },
      });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toContain('environment');
      expect(await api.rows('SELECT environment FROM organisations WHERE id = $1', [live.orgId])).toEqual([
        { environment: 'LIVE' },
      ]);
    });
  });

  describe('the test clock', () => {
    it('reads real time at first, moves forward by seconds or to a time, and never back', async () => {
      const org = await api.createOrg({ environment: 'SANDBOX' });
      const first = await org.signed<Clock>('GET', '/api/v1/sandbox/clock');
      expect(first.status).toBe(200);
      expect(first.body.data?.offsetMs).toBe(0);
      expect(Math.abs(Date.parse(first.body.data!.now) - Date.now())).toBeLessThan(5_000);

      const moved = await advance({ advanceBy: 3600 }, org);
      expect(moved.body.data?.offsetMs).toBe(3_600_000);
      const target = new Date(Date.now() + 2 * DAY_S * 1000).toISOString();
      const to = await advance({ to: target }, org);
      expect(Math.abs(Date.parse(to.body.data!.now) - Date.parse(target))).toBeLessThan(5_000);
      const stored = await api.rows<{ offset_ms: string }>(
        'SELECT offset_ms FROM sandbox_clocks WHERE org_id = $1',
        [org.orgId],
      );
      expect(Number(stored[0]?.offset_ms)).toBe(to.body.data?.offsetMs);

      // With a token: two refused bodies may sign alike within a second, and a signature is used once.
      const token = await org.token(['BASE_MODULE:WRITE']);
      for (const [body, error] of [
        [{ to: new Date().toISOString() }, "to must not be before the organisation's current time"],
        [{ advanceBy: 0 }, 'advanceBy must be at least 1'],
        [{ advanceBy: 1.5 }, 'advanceBy must be a whole number of seconds'],
        [{}, 'send exactly one of advanceBy'],
        [{ advanceBy: 1, to: target }, 'send exactly one of advanceBy'],
        [{ to: 'tomorrow' }, 'to must be an ISO 8601 time'],
      ] as const) {
        const refused = await api.request('POST', '/api/v1/sandbox/clock', {
          body,
          headers: { authorization: `Bearer ${token}` },
        });
        expect([refused.status, refused.body.error]).toEqual([400, expect.stringContaining(error)]);
      }
      expect(
        await api.rows<{ offset_ms: string }>('SELECT offset_ms FROM sandbox_clocks WHERE org_id = $1', [
          org.orgId,
        ]),
      ).toEqual(stored);
    });

    it('needs BASE_MODULE:READ to read and BASE_MODULE:WRITE to move', async () => {
      const read: Scope[] = ['BASE_MODULE:READ'];
      expect((await sandbox.bearer('GET', '/api/v1/sandbox/clock', { scopes: read })).status).toBe(200);
      const refused = await sandbox.bearer('POST', '/api/v1/sandbox/clock', {
        scopes: read,
        body: { advanceBy: 1 },
      });
      expect(refused.status).toBe(401);
    });

    it('moves KYC expiry: a waiting form expires once the clock passes the limit, a live one does not', async () => {
      const org = await api.createOrg({ environment: 'SANDBOX' });
      const waiting = id('clock-');
      const view = await throughForm(org, waiting);
      const bystander = id('live-');
      await throughForm(live, bystander);
      expect(Date.parse(view.expiresAt!) - Date.now()).toBeGreaterThan(29 * DAY_S * 1000);

      await advance({ advanceBy: 29 * DAY_S }, org);
      expect(await kycEventsOf(org, waiting)).not.toContain('KYC_EXPIRED');
      const passed = await advance({ advanceBy: 2 * DAY_S }, org);
      expect(passed.status).toBe(200);
      expect(await kycEventsOf(org, waiting)).toEqual([
        'KYC_PENDING',
        'KYC_DOC_UPLOADED',
        'KYC_FORM_SUBMITTED',
        'KYC_EXPIRED',
      ]);
      expect(
        await api.rows('SELECT kyc_state, kyc_expires_at FROM users WHERE org_id = $1 AND org_user_id = $2', [
          org.orgId,
          waiting,
        ]),
      ).toEqual([{ kyc_state: 'KYC_EXPIRED', kyc_expires_at: null }]);
      expect(
        await api.rows('SELECT kyc_state FROM users WHERE org_id = $1 AND org_user_id = $2', [
          live.orgId,
          bystander,
        ]),
      ).toEqual([{ kyc_state: 'KYC_FORM_SUBMITTED' }]);

      // A form that arrives after the clock moved waits KYC_EXPIRY_DAYS of the organisation's time.
      const later = await throughForm(org, id('later-'));
      const clock = await org.signed<Clock>('GET', '/api/v1/sandbox/clock');
      const waits = Date.parse(later.expiresAt!) - Date.parse(clock.body.data!.now);
      expect(Math.abs(waits - 30 * DAY_S * 1000)).toBeLessThan(5_000);
    });
  });

  describe('magic orgUserIds move KYC on when the form arrives', () => {
    const cases = [
      ['kyc-approve-', 'KYC_COMPLETED', 'kyc.approve', 'ACTIVE'],
      ['kyc-reject-', 'KYC_REJECTED', 'kyc.reject', 'REJECTED'],
      ['kyc-rfi-', 'KYC_RFI', 'kyc.request-information', 'PENDING'],
      ['kyc-expire-', 'KYC_EXPIRED', 'kyc.expire', 'PENDING'],
    ] as const;

    it.each(cases)(
      '%s: through the state machine, with its event, audited as the sandbox',
      async (prefix, state, action, status) => {
        const orgUserId = id(prefix);
        const view = await throughForm(sandbox, orgUserId);
        expect(view.kycState).toBe(state);
        expect(await kycEventsOf(sandbox, orgUserId)).toEqual([
          'KYC_PENDING',
          'KYC_DOC_UPLOADED',
          'KYC_FORM_SUBMITTED',
          state,
        ]);
        expect(
          await api.rows('SELECT kyc_state, user_status FROM users WHERE org_id = $1 AND org_user_id = $2', [
            sandbox.orgId,
            orgUserId,
          ]),
        ).toEqual([{ kyc_state: state, user_status: status }]);
        const audit = await api.rows<{ actor: string; action: string }>(
          "SELECT actor, action FROM audit_log WHERE org_id = $1 AND details->>'orgUserId' = $2",
          [sandbox.orgId, orgUserId],
        );
        expect(audit).toEqual([{ actor: 'system:sandbox', action }]);
      },
    );

    it.each(cases)('%s is an ordinary orgUserId in a live organisation', async (prefix) => {
      const orgUserId = id(prefix);
      expect((await throughForm(live, orgUserId)).kycState).toBe('KYC_FORM_SUBMITTED');
      expect(await kycEventsOf(live, orgUserId)).toEqual([
        'KYC_PENDING',
        'KYC_DOC_UPLOADED',
        'KYC_FORM_SUBMITTED',
      ]);
      expect(
        await api.rows("SELECT 1 FROM audit_log WHERE org_id = $1 AND details->>'orgUserId' = $2", [
          live.orgId,
          orgUserId,
        ]),
      ).toEqual([]);
    });
  });

  describe('magic clientOrderIds decide a MARKET order', () => {
    const prefixes = Object.entries(ORDER_MAGIC_PREFIXES);
    const order = async (session: OrgSession, prefix: string) => {
      const orgUserId = id('trader-');
      await user(session, orgUserId, true);
      const clientOrderId = `${prefix}0000-4000-8000-${String(++serial).padStart(12, '0')}`;
      const placed = await session.signed<{ id: number; status: string; rejectionReason: string | null }>(
        'POST',
        '/api/v1/orders/',
        {
          body: { orgUserId, clientOrderId, symbol: 'BTC_EUR', side: 'BUY', type: 'MARKET', quantity: 0.01 },
        },
      );
      expect([placed.status, placed.body.error]).toEqual([200, null]);
      return placed.body.data!;
    };

    it('covers every rejection reason', () => {
      const reasons = prefixes.flatMap(([, outcome]) => ('reason' in outcome ? [outcome.reason] : []));
      expect(reasons.sort()).toEqual([...ORDER_REJECTION_REASONS].sort());
    });

    it.each(prefixes)(
      '%s in a sandbox organisation: %j, stored with its Orders event',
      async (prefix, outcome) => {
        const placed = await order(sandbox, prefix);
        const expected =
          outcome.kind === 'reject'
            ? { status: 'REJECTED', rejectionReason: outcome.reason }
            : outcome.kind === 'fail'
              ? { status: 'FAILED', rejectionReason: 'VENUE_ERROR' }
              : // Filling partially waits for resting orders: a MARKET order fills whole.
                { status: 'COMPLETED', rejectionReason: null };
        expect(placed).toMatchObject(expected);
        expect(
          await api.rows('SELECT status, rejection_reason FROM orders WHERE id = $1', [placed.id]),
        ).toEqual([{ status: expected.status, rejection_reason: expected.rejectionReason }]);
        const events = await api.rows<{ data: { status: string } }>(
          "SELECT data FROM events WHERE org_id = $1 AND entity = 'Orders' AND (data->>'id')::bigint = $2",
          [sandbox.orgId, placed.id],
        );
        expect(events.map((event) => event.data.status)).toEqual([expected.status]);
      },
    );

    it.each(prefixes)(
      '%s is an ordinary clientOrderId in a live organisation: the order fills',
      async (prefix) => {
        const placed = await order(live, prefix);
        expect(placed).toMatchObject({ status: 'COMPLETED', rejectionReason: null });
      },
    );
  });

  describe('triggered events', () => {
    const trigger = (body: unknown, session = sandbox) =>
      session.signed<{ eventId: string; orgUserId: string | null; createdUser: boolean }>(
        'POST',
        '/api/v1/sandbox/events',
        { body },
      );
    const stored = (eventId: string) =>
      api.rows<{ entity: string; event_type: string | null; status: string; data: Record<string, unknown> }>(
        'SELECT entity, event_type, status, data FROM events WHERE id = $1',
        [eventId],
      );

    it.each([
      [{ entity: 'Orders' }, { status: 'COMPLETED', type: 'MARKET', symbol: 'BTC_EUR' }],
      [{ entity: 'Actions' }, { name: 'QUOTE_LIMIT', newValues: { EUR: 10000 } }],
      [{ entity: 'SystemInformation' }, { event: 'MAINTENANCE_ALERTS', entity: 'BTC_EUR' }],
      [
        { entity: 'Users', eventType: 'KYC_COMPLETED' },
        { kyc: true, userStatus: 'ACTIVE' },
      ],
      [
        { entity: 'Users', eventType: 'KYC_REJECTED' },
        { kyc: false, userStatus: 'REJECTED' },
      ],
      [
        { entity: 'Users', eventType: 'KYC_DOC_UPLOADED' },
        { docCategory: 'IDENTITY', docSubCategory: 'PASSPORT' },
      ],
    ])('%j records a real event with a realistic record', async (body, data) => {
      const triggered = await trigger(body);
      expect(triggered.status).toBe(200);
      const [event] = await stored(triggered.body.data!.eventId);
      expect(event).toMatchObject({
        entity: body.entity,
        event_type: 'eventType' in body ? body.eventType : null,
        status: 'PENDING',
        data: {
          ...data,
          ...(body.entity === 'Actions' || body.entity === 'SystemInformation'
            ? {}
            : { orgId: sandbox.orgId }),
        },
      });
      const logged = await sandbox.signed('GET', `/api/v1/events/${triggered.body.data!.eventId}`);
      expect(logged.status).toBe(200);
    });

    it('for a user it creates (whose creation is the Users event) or one named, who must exist', async () => {
      const created = await trigger({ entity: 'Users' });
      expect(created.body.data?.createdUser).toBe(true);
      expect(created.body.data?.orgUserId).toMatch(/^sandbox-/);
      const [event] = await stored(created.body.data!.eventId);
      expect(event?.data).toMatchObject({ orgUserId: created.body.data!.orgUserId, kyc: false });

      const named = id('named-');
      await user(sandbox, named);
      const kyc = await trigger({ entity: 'Users', eventType: 'KYC_RFI', orgUserId: named });
      expect(kyc.body.data).toMatchObject({ orgUserId: named, createdUser: false });
      expect((await stored(kyc.body.data!.eventId))[0]?.data).toMatchObject({ orgUserId: named });

      const [before] = await api.rows<{ n: number }>('SELECT count(*)::int AS n FROM events');
      const missing = await trigger({ entity: 'Orders', orgUserId: 'nobody-here' });
      expect(missing.status).toBe(404);
      const mismatched = await trigger({ entity: 'Orders', eventType: 'KYC_RFI' });
      expect([mismatched.status, mismatched.body.error]).toEqual([
        400,
        expect.stringContaining('eventType applies to entity Users only'),
      ]);
      const unknown = await trigger({ entity: 'Trades' });
      expect([unknown.status, unknown.body.error]).toEqual([
        400,
        expect.stringContaining('entity must be one of'),
      ]);
      expect(await api.rows('SELECT count(*)::int AS n FROM events')).toEqual([before]);
    });
  });

  it('a live organisation has no sandbox routes: 404 on each, with nothing written', async () => {
    const [before] = await api.rows<{ n: number }>('SELECT count(*)::int AS n FROM events');
    for (const [method, path, body] of [
      ['GET', '/api/v1/sandbox/clock', undefined],
      ['POST', '/api/v1/sandbox/clock', { advanceBy: 60 }],
      ['POST', '/api/v1/sandbox/events', { entity: 'Users' }],
    ] as const) {
      const answer = await live.signed(method, path, body === undefined ? {} : { body });
      expect([answer.status, answer.body.error]).toEqual([
        404,
        expect.stringContaining('sandbox organisations'),
      ]);
    }
    expect(await api.rows('SELECT 1 FROM sandbox_clocks WHERE org_id = $1', [live.orgId])).toEqual([]);
    expect(await api.rows('SELECT count(*)::int AS n FROM events')).toEqual([before]);
  });
});
