// CSV exports and search over plain HTTP against the real api: the dashboard's orders and events exports
// (only the session's organisation, only with the page's permission, a bad range refused), the events
// list's search by user and order, and the console's audit export and KYC queue search.
import { ApiFixture, type OrgSession } from './support/app-fixture.js';
import { ConsoleClient } from './support/console-client.js';
import { csvRecords } from './support/csv.js';
import {
  DashboardClient,
  seedOrganisation,
  type SeededData,
  signInLink,
} from './support/dashboard-session.js';

jest.setTimeout(60_000);

/** The records of a CSV as objects by the header's names. */
function rows(text: string): Record<string, string>[] {
  const [header = [], ...body] = csvRecords(text);
  return body.map((cells) => Object.fromEntries(header.map((name, i) => [name, cells[i] ?? ''])));
}

describe('exports and search', () => {
  let api: ApiFixture;
  let org: OrgSession;
  let other: OrgSession;
  let data: SeededData;
  let otherData: SeededData;
  let client: DashboardClient;

  beforeAll(async () => {
    api = await ApiFixture.start();
    org = await api.createOrg({ name: 'Alpha Brokers' });
    other = await api.createOrg({ name: 'Beta Savings' });
    data = await seedOrganisation(org, 'alpha');
    otherData = await seedOrganisation(other, 'beta');
    client = await DashboardClient.signIn(await signInLink(org));
  });

  afterAll(async () => {
    await api.close();
  });

  describe('the dashboard', () => {
    it("exports the organisation's orders as CSV with the stored digits, and none of another's", async () => {
      // An amount with more digits than a double carries, and text a spreadsheet would run, stored as is.
      await api.rows(
        `UPDATE orders SET net_executed_amount = '123456789012345678901.12345678', rejection_reason = '=HYPERLINK("x")'
          WHERE id = $1`,
        [data.orderId],
      );
      const answer = await client.get('/dashboard/orders/export.csv');
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(answer.headers.get('content-disposition')).toMatch(
        new RegExp(
          `^attachment; filename="orders-${org.orgId}-\\d{4}-\\d{2}-\\d{2}_\\d{4}-\\d{2}-\\d{2}\\.csv"$`,
        ),
      );
      expect(answer.headers.get('cache-control')).toBe('no-store');
      expect(answer.html.split('\r\n')[0]).toMatch(/^id,clientOrderId,orgUserId,symbol,side,type,quantity,/);
      const orders = rows(answer.html);
      const [stored] = await api.rows<{ n: number }>(
        'SELECT count(*)::int AS n FROM orders WHERE org_id = $1',
        [org.orgId],
      );
      expect(orders).toHaveLength(stored?.n ?? -1);
      const order = orders.find((row) => row.id === String(data.orderId));
      expect(order).toMatchObject({
        orgUserId: data.trader,
        symbol: 'BTC_EUR',
        netExecutedAmount: '123456789012345678901.12345678',
        rejectionReason: `'=HYPERLINK("x")`,
      });
      expect(order?.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(answer.html).not.toContain(otherData.trader);
      expect(orders.map((row) => row.id)).not.toContain(String(otherData.orderId));
    });

    it("exports the organisation's events in a range, each naming its user and order", async () => {
      const answer = await client.get('/dashboard/events/export.csv');
      expect(answer.status).toBe(200);
      const events = rows(answer.html);
      const [stored] = await api.rows<{ n: number }>(
        'SELECT count(*)::int AS n FROM events WHERE org_id = $1',
        [org.orgId],
      );
      expect(events).toHaveLength(stored?.n ?? -1);
      expect(events.map((row) => row.id)).toContain(data.eventId);
      expect(events.find((row) => row.entity === 'Orders')).toMatchObject({
        orgUserId: data.trader,
        orderId: String(data.orderId),
      });
      expect(answer.html).not.toContain('beta-');
      // Oldest first, the range bounds the rows: a range before anything holds the header alone.
      const times = events.map((row) => row.createdAt);
      expect([...times].sort()).toEqual(times);
      const empty = await client.get('/dashboard/events/export.csv?since=2001-01-01&until=2001-01-31');
      expect(empty.status).toBe(200);
      expect(csvRecords(empty.html)).toEqual([
        ['id', 'createdAt', 'entity', 'eventType', 'status', 'orgUserId', 'orderId', 'data'],
      ]);
    });

    it('refuses a bad range with a 400 naming the field and rule', async () => {
      const bad = await client.get('/dashboard/orders/export.csv?since=yesterday');
      expect(bad.status).toBe(400);
      expect(bad.html).toContain('since must be a day (2030-01-31, in UTC) or an ISO 8601 date and time');
      const backwards = await client.get('/dashboard/events/export.csv?since=2030-02-01&until=2030-01-01');
      expect(backwards.status).toBe(400);
      expect(backwards.html).toContain('until must be after since');
    });

    it('needs the page its rows are on, as the page does', async () => {
      const usersOnly = await DashboardClient.signIn(await signInLink(org, { pages: ['OVERVIEW', 'USERS'] }));
      expect((await usersOnly.get('/dashboard/orders')).status).toBe(403);
      const orders = await usersOnly.get('/dashboard/orders/export.csv');
      expect(orders.status).toBe(403);
      expect(orders.html).not.toContain(data.trader);
      expect((await usersOnly.get('/dashboard/events/export.csv')).status).toBe(403);
      const signedOut = await fetch(`${api.baseUrl}/dashboard/orders/export.csv`, { redirect: 'manual' });
      expect([302, 303, 401]).toContain(signedOut.status);
      expect(await signedOut.text()).not.toContain(data.trader);
    });

    it('finds the events of a user and of an order, only in its own organisation', async () => {
      const ofUser = await client.get(`/dashboard/events?orgUserId=${data.applicant}`);
      expect(ofUser.status).toBe(200);
      const userEvents = await api.rows<{ id: string }>(
        "SELECT id FROM events WHERE org_id = $1 AND data->>'orgUserId' = $2",
        [org.orgId, data.applicant],
      );
      expect(userEvents.length).toBeGreaterThan(1);
      for (const { id } of userEvents) expect(ofUser.html).toContain(id);
      const [orderEvent] = await api.rows<{ id: string }>(
        "SELECT id FROM events WHERE org_id = $1 AND entity = 'Orders' AND data->>'id' = $2",
        [org.orgId, String(data.orderId)],
      );
      expect(orderEvent).toBeDefined();
      expect(ofUser.html).not.toContain(orderEvent?.id);

      const ofOrder = await client.get(`/dashboard/events?orderId=${data.orderId}`);
      expect(ofOrder.html).toContain(orderEvent?.id);
      expect(ofOrder.html).not.toContain(userEvents[0]?.id);
      expect(ofOrder.html).toContain(`name="orderId" value="${data.orderId}"`);
      const otherOrder = await client.get(`/dashboard/events?orderId=${otherData.orderId}`);
      expect(otherOrder.html).toContain('No event matches.');
      const otherUser = await client.get(`/dashboard/events?orgUserId=${otherData.trader}`);
      expect(otherUser.html).toContain('No event matches.');

      const bad = await client.get('/dashboard/events?orderId=abc');
      expect(bad.status).toBe(400);
      expect(bad.html).toContain('orderId must be an order id');
    });
  });

  describe('the console', () => {
    let support: ConsoleClient;

    beforeAll(async () => {
      support = await ConsoleClient.signIn(api, await api.enrolOperator('SUPPORT'));
    });

    it('exports the audit log of a range as CSV, with the details as JSON', async () => {
      const answer = await support.get('/console/audit/export.csv');
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      const entries = rows(answer.html);
      const [stored] = await api.rows<{ n: number }>(
        "SELECT count(*)::int AS n FROM audit_log WHERE created_at >= now() - interval '30 days'",
      );
      expect(entries).toHaveLength(stored?.n ?? -1);
      const [latest] = await api.rows<{ id: string; action: string; details: object }>(
        'SELECT id, action, details FROM audit_log WHERE org_id = $1 ORDER BY id DESC LIMIT 1',
        [org.orgId],
      );
      const entry = entries.find((row) => row.id === latest?.id);
      expect(entry).toMatchObject({ action: latest?.action, orgId: String(org.orgId) });
      expect(JSON.parse(entry?.details ?? 'null')).toEqual(latest?.details);
      expect(entry?.createdAt).toMatch(/Z$/);
      const none = await support.get('/console/audit/export.csv?until=2001-01-01');
      expect(csvRecords(none.html)).toHaveLength(1);
      const signedOut = await fetch(`${api.baseUrl}/console/audit/export.csv`, { redirect: 'manual' });
      expect(signedOut.status).not.toBe(200);
    });

    it('searches the KYC queue by the start of an orgUserId across organisations', async () => {
      const reviewer = await ConsoleClient.signIn(api, await api.enrolOperator('KYC_REVIEWER'));
      // Both applicants were sent back with a request for information; submit both forms again.
      for (const [session, applicant] of [
        [org, data.applicant],
        [other, otherData.applicant],
      ] as const) {
        const form = await session.bearer('POST', `/api/v1/user/${applicant}/kyc/form`, {
          body: {
            firstName: 'Ada',
            lastName: 'Lovelace',
            dateOfBirth: '1990-04-01',
            nationality: 'GB',
            address: { line1: '1 Main Street', city: 'London', postalCode: 'N1 1AA', country: 'GB' },
          },
        });
        expect(form.status).toBe(200);
      }
      const all = await reviewer.get('/console/kyc');
      expect(all.html).toContain(data.applicant);
      expect(all.html).toContain(otherData.applicant);
      const beta = await reviewer.get('/console/kyc?q=beta-');
      expect(beta.status).toBe(200);
      expect(beta.html).toContain(otherData.applicant);
      expect(beta.html).not.toContain(data.applicant);
      expect(beta.html).toContain('1 waiting for a decision with a matching orgUserId');
      // LIKE's wildcards are taken as themselves.
      expect((await reviewer.get('/console/kyc?q=_')).html).toContain('No KYC of a matching user waits');
      const bad = await reviewer.get('/console/kyc?q=%20x');
      expect(bad.status).toBe(400);
      expect(bad.html).toContain('q must be the start of an orgUserId');
    });
  });
});
