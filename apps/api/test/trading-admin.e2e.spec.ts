// The operator side of trading end to end: prices, policy changes and their Actions events, system notices
// with their SystemInformation fan-out and trading halts, and the admin CLI commands for them.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { SECURITY_SCHEMES } from '../src/auth/decorators.js';
import { ApiFixture, type OrgSession, type TestResponse } from './support/app-fixture.js';

const execFileAsync = promisify(execFile);
const CLI = join(__dirname, '..', 'dist', 'cli', 'admin.js');

interface PriceData {
  symbol: string;
  price: number;
  updatedAt: string;
}
interface PolicyData {
  enabledAssets: string[];
  quoteLimit: Record<string, number>;
  totalLimit: Record<string, number>;
  totalExposure: Record<string, number>;
  assetExposure: Record<string, number>;
  commissionRate: number;
  vatRate: number;
}
interface OrgData {
  orgId: number;
  policy: PolicyData;
}
interface NoticeData {
  id: string;
  event: string;
  entity: string;
  message: string;
  startTime: string | null;
  endTime: string | null;
  createdAt: string;
  recipients?: number;
}
interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

describe('operator trading surface', () => {
  let api: ApiFixture;

  beforeAll(async () => {
    api = await ApiFixture.start();
  });
  afterAll(() => api.close());

  const count = async (sql: string, parameters: unknown[] = []) =>
    Number((await api.rows<{ n: string }>(`SELECT count(*) AS n FROM ${sql}`, parameters))[0]!.n);
  /** Everything a refused request must leave as it was. */
  const snapshot = async () => {
    const [row] = await api.rows(
      `SELECT (SELECT count(*)::int FROM events) AS events,
              ${api.queuedDeliveries} AS jobs,
              (SELECT count(*)::int FROM audit_log) AS audit,
              (SELECT count(*)::int FROM prices) AS prices,
              (SELECT count(*)::int FROM system_notices) AS notices,
              (SELECT json_agg(t ORDER BY symbol)::text FROM trading_halts t) AS halts,
              (SELECT json_agg(p ORDER BY symbol)::text FROM prices p) AS price_rows,
              (SELECT json_agg(o.policy ORDER BY id)::text FROM organisations o) AS policies`,
    );
    return row;
  };
  const jobFor = (eventId: string) => api.queuedFor([eventId]);
  const lastAudit = async (action: string) =>
    (
      await api.rows<{ actor: string; org_id: number | null; details: Record<string, unknown> }>(
        'SELECT actor, org_id, details FROM audit_log WHERE action = $1 ORDER BY id DESC LIMIT 1',
        [action],
      )
    )[0];
  const expect400 = (response: TestResponse, ...fragments: string[]) => {
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 400, data: null });
    for (const fragment of fragments) expect(response.body.error).toContain(fragment);
  };

  describe('prices', () => {
    const put = (symbol: string, body: unknown) =>
      api.admin<PriceData>('PUT', `/api/v1/admin/prices/${symbol}/`, { body });

    it('sets a price, answers it with its exact digits and audits the change', async () => {
      const first = await put('BTC_EUR', { price: 55000.5 });
      expect(first.status).toBe(200);
      expect(first.body.data).toMatchObject({ symbol: 'BTC_EUR', price: 55000.5 });
      expect(first.text).toContain('"price":55000.5,');
      expect(Date.parse(first.body.data!.updatedAt)).toBeGreaterThan(Date.now() - 60_000);
      expect(await api.rows('SELECT symbol, price FROM prices')).toEqual([
        { symbol: 'BTC_EUR', price: '55000.50000000' },
      ]);
      expect(await lastAudit('price.set')).toEqual({
        actor: 'admin@ops.test',
        org_id: null,
        details: { symbol: 'BTC_EUR', from: null, to: '55000.50000000' },
      });

      const second = await put('BTC_EUR', { price: 123456789.12345678 });
      expect(second.text).toContain('"price":123456789.12345678,');
      expect((await lastAudit('price.set'))?.details).toEqual({
        symbol: 'BTC_EUR',
        from: '55000.50000000',
        to: '123456789.12345678',
      });
    });

    it('gets one price, lists them by symbol with the common cursor, and 404s an unknown pair', async () => {
      await put('ETH_EUR', { price: 0.00000001 });
      await put('ADA_USD', { price: 1 });
      const one = await api.admin<PriceData>('GET', '/api/v1/admin/prices/ETH_EUR/');
      expect(one.status).toBe(200);
      expect(one.text).toContain('"price":0.00000001,');
      expect(one.body.data).toMatchObject({ symbol: 'ETH_EUR', price: 0.00000001 });

      const first = await api.admin<Page<PriceData>>('GET', '/api/v1/admin/prices/?limit=2');
      expect(first.body.data!.items.map((item) => item.symbol)).toEqual(['ADA_USD', 'BTC_EUR']);
      expect(first.body.data!.nextCursor).toEqual(expect.any(String));
      const second = await api.admin<Page<PriceData>>(
        'GET',
        `/api/v1/admin/prices/?limit=2&cursor=${first.body.data!.nextCursor}`,
      );
      expect(second.body.data).toEqual({
        items: [expect.objectContaining({ symbol: 'ETH_EUR' })],
        nextCursor: null,
      });
      expect400(await api.admin('GET', '/api/v1/admin/prices/?cursor=Zm9v'), 'cursor');

      const missing = await api.admin('GET', '/api/v1/admin/prices/XRP_EUR/');
      expect(missing.status).toBe(404);
      expect(missing.body.error).toBe('Not Found: no price for XRP_EUR');
    });

    it('deletes a price (audited), after which the pair has none', async () => {
      const removed = await api.admin<PriceData>('DELETE', '/api/v1/admin/prices/ADA_USD/');
      expect(removed.status).toBe(200);
      expect(removed.body.data).toMatchObject({ symbol: 'ADA_USD', price: 1 });
      expect(await count("prices WHERE symbol = 'ADA_USD'")).toBe(0);
      expect((await lastAudit('price.delete'))?.details).toEqual({ symbol: 'ADA_USD', from: '1.00000000' });
      expect((await api.admin('GET', '/api/v1/admin/prices/ADA_USD/')).status).toBe(404);
      const before = await snapshot();
      expect((await api.admin('DELETE', '/api/v1/admin/prices/ADA_USD/')).status).toBe(404);
      expect(await snapshot()).toEqual(before);
    });

    it.each([
      ['btc_eur', { price: 1 }, 'symbol must be BASE_QUOTE'],
      ['BTCEUR', { price: 1 }, 'symbol must be BASE_QUOTE'],
      ['B_EUR', { price: 1 }, 'symbol must be BASE_QUOTE'],
      ['BTC_EUR', { price: 0 }, 'price must be a number greater than 0 with at most 8 decimals'],
      ['BTC_EUR', { price: -1 }, 'price must be a number greater than 0'],
      ['BTC_EUR', { price: 1.123456789 }, 'price must be a number greater than 0 with at most 8 decimals'],
      ['BTC_EUR', { price: 1e30 }, 'price must have at most 30 digits before the point'],
      ['BTC_EUR', { price: '1' }, 'price must be'],
      ['BTC_EUR', { price: null }, 'price must be'],
      ['BTC_EUR', {}, 'price must be'],
      ['BTC_EUR', { price: 1, currency: 'EUR' }, 'property currency should not exist'],
    ])('PUT %s %j is a 400 naming the field, and writes nothing', async (symbol, body, message) => {
      const before = await snapshot();
      expect400(await put(symbol, body), message);
      expect(await snapshot()).toEqual(before);
    });

    it('stores a price past a double digit for digit: 30 integer digits and 8 decimals at most', async () => {
      const putText = (price: string) =>
        api.admin<PriceData>('PUT', '/api/v1/admin/prices/XRP_EUR/', { rawBody: `{"price":${price}}` });
      const stored = async () => (await api.rows("SELECT price FROM prices WHERE symbol = 'XRP_EUR'"))[0];
      const big = await putText('123456789012345678901234567890');
      expect(big.status).toBe(200);
      expect(big.text).toContain('"price":123456789012345678901234567890,');
      expect(await stored()).toEqual({ price: '123456789012345678901234567890.00000000' });
      const widest = await putText('999999999999999999999999999999.99999999');
      expect(widest.text).toContain('"price":999999999999999999999999999999.99999999,');
      expect(await stored()).toEqual({ price: '999999999999999999999999999999.99999999' });

      const before = await snapshot();
      expect400(
        await putText('1234567890123456789012345678901'),
        'price must have at most 30 digits before the point',
      );
      expect400(
        await putText('1.000000001'),
        'price must be a number greater than 0 with at most 8 decimals',
      );
      // A double would read this as 0.1; the digits sent have 18 decimals.
      expect400(
        await putText('0.100000000000000001'),
        'price must be a number greater than 0 with at most 8 decimals',
      );
      expect(await snapshot()).toEqual(before);
      await api.admin('DELETE', '/api/v1/admin/prices/XRP_EUR/');
    });

    it('refuses a malformed symbol on GET and DELETE too, and every route without the admin token', async () => {
      expect400(await api.admin('GET', '/api/v1/admin/prices/bad/'), 'symbol must be');
      expect400(await api.admin('DELETE', '/api/v1/admin/prices/bad/'), 'symbol must be');
      for (const [method, path] of [
        ['GET', '/api/v1/admin/prices/'],
        ['GET', '/api/v1/admin/prices/BTC_EUR/'],
        ['PUT', '/api/v1/admin/prices/BTC_EUR/'],
        ['DELETE', '/api/v1/admin/prices/BTC_EUR/'],
        ['PATCH', '/api/v1/admin/orgs/1/policy/'],
        ['POST', '/api/v1/admin/notices/'],
        ['GET', '/api/v1/admin/notices/'],
        ['GET', '/api/v1/admin/notices/1/'],
      ] as const) {
        const body = method === 'GET' || method === 'DELETE' ? undefined : { price: 1 };
        expect((await api.request(method, path, { body })).status).toBe(401);
      }
    });
  });

  describe('policy', () => {
    let org: OrgSession;
    beforeAll(async () => {
      org = await api.createOrg();
    });

    const patch = (body: unknown, orgId: number | string = org.orgId) =>
      api.admin<OrgData>('PATCH', `/api/v1/admin/orgs/${orgId}/policy/`, { body });
    /** The org's Actions events after `after` (an events count), oldest first, data as stored text. */
    const actionsSince = (since: string) =>
      api.rows<{ id: string; data: string }>(
        `SELECT id, data::text AS data FROM events
         WHERE org_id = $1 AND entity = 'Actions' AND created_at >= $2 ORDER BY created_at, data::text`,
        [org.orgId, since],
      );
    const now = async () =>
      (await api.rows<{ t: string }>("SELECT to_char(now(), 'YYYY-MM-DD HH24:MI:SS.US TZH') AS t"))[0]!.t;

    it('changing one limit emits exactly one Actions event with the full map, its job, and an audit entry', async () => {
      const since = await now();
      const response = await patch({ quoteLimit: { USD: 900.5, EUR: 1000 } });
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({
        orgId: org.orgId,
        policy: { quoteLimit: { EUR: 1000, USD: 900.5 } },
      });
      expect(response.text).toContain('"quoteLimit":{"EUR":1000,"USD":900.5}');
      const events = await actionsSince(since);
      expect(events.map((event) => event.data)).toEqual([
        '{"name":"QUOTE_LIMIT","newValues":{"EUR":1000,"USD":900.5}}',
      ]);
      expect(await jobFor(events[0]!.id)).toBe(1);
      expect(await lastAudit('org.policy')).toEqual({
        actor: 'admin@ops.test',
        org_id: org.orgId,
        details: {
          changes: { quoteLimit: { from: {}, to: { EUR: '1000', USD: '900.5' } } },
          eventIds: [events[0]!.id],
        },
      });
      const stored = await api.rows<{ policy: Record<string, unknown> }>(
        'SELECT policy FROM organisations WHERE id = $1',
        [org.orgId],
      );
      expect(stored[0]!.policy.quoteLimit).toEqual({ EUR: '1000', USD: '900.5' });
      const view = await api.admin<OrgData>('GET', `/api/v1/admin/orgs/${org.orgId}/`);
      expect(view.body.data!.policy.quoteLimit).toEqual({ EUR: 1000, USD: 900.5 });
    });

    it('emits one event per changed limit, each with its complete new map; 0 is a limit', async () => {
      const since = await now();
      const response = await patch({
        quoteLimit: { EUR: 1000, USD: 900.5, GBP: 0.00000001 },
        totalLimit: { EUR: 123456789.12345678 },
        totalExposure: { EUR: 50000 },
        assetExposure: { BTC: 2, ETH: 0 },
      });
      expect(response.status).toBe(200);
      const data = (await actionsSince(since)).map((event) => event.data).sort();
      expect(data).toEqual([
        '{"name":"ASSET_EXPOSURE","newValues":{"BTC":2,"ETH":0}}',
        '{"name":"QUOTE_LIMIT","newValues":{"EUR":1000,"GBP":0.00000001,"USD":900.5}}',
        '{"name":"TOTAL_EXPOSURE","newValues":{"EUR":50000}}',
        '{"name":"TOTAL_LIMIT","newValues":{"EUR":123456789.12345678}}',
      ]);
      expect(response.body.data!.policy).toMatchObject({ assetExposure: { BTC: 2, ETH: 0 } });
    });

    it('a field sent unchanged emits nothing (the audit entry says nothing changed)', async () => {
      const since = await now();
      const response = await patch({
        quoteLimit: { USD: 900.5, GBP: 0.00000001, EUR: 1000.0 },
        totalExposure: { EUR: 50000 },
      });
      expect(response.status).toBe(200);
      expect(await actionsSince(since)).toEqual([]);
      expect((await lastAudit('org.policy'))?.details).toEqual({ changes: {}, eventIds: [] });
    });

    it('an empty map clears a limit and reports the empty map', async () => {
      const since = await now();
      await patch({ totalExposure: {} });
      expect((await actionsSince(since)).map((event) => event.data)).toEqual([
        '{"name":"TOTAL_EXPOSURE","newValues":{}}',
      ]);
    });

    it('enabledAssets emits ASSET_ENABLE: 1 for every enabled asset, 0 for each one just removed', async () => {
      let since = await now();
      const first = await patch({ enabledAssets: ['ETH', 'BTC'] });
      expect(first.body.data!.policy.enabledAssets).toEqual(['BTC', 'ETH']);
      expect((await actionsSince(since)).map((event) => event.data)).toEqual([
        '{"name":"ASSET_ENABLE","newValues":{"BTC":1,"ETH":1}}',
      ]);
      since = await now();
      await patch({ enabledAssets: ['SOL', 'ETH'] });
      expect((await actionsSince(since)).map((event) => event.data)).toEqual([
        '{"name":"ASSET_ENABLE","newValues":{"BTC":0,"ETH":1,"SOL":1}}',
      ]);
      since = await now();
      await patch({ enabledAssets: ['ETH', 'SOL'] });
      expect(await actionsSince(since)).toEqual([]);
    });

    it('commission and VAT changes are audited and emit no event', async () => {
      const since = await now();
      const response = await patch({ commissionRate: 0.0015, vatRate: 0.21 });
      expect(response.status).toBe(200);
      expect(response.text).toContain('"commissionRate":0.0015,"vatRate":0.21');
      expect(await actionsSince(since)).toEqual([]);
      expect((await lastAudit('org.policy'))?.details).toEqual({
        changes: { commissionRate: { from: '0', to: '0.0015' }, vatRate: { from: '0', to: '0.21' } },
        eventIds: [],
      });
    });

    const many = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`A${100 + i}`, 1]));
    it.each([
      [{}, 'send at least one of enabledAssets, quoteLimit'],
      [{ enabledAssets: 'BTC' }, 'enabledAssets must be an array'],
      [
        { enabledAssets: ['btc'] },
        'enabledAssets must hold asset codes of 2 to 12 capital letters or digits',
      ],
      [{ enabledAssets: ['BTC', 'BTC'] }, 'enabledAssets must not repeat'],
      [{ enabledAssets: Object.keys(many) }, 'enabledAssets must hold at most 100'],
      [{ enabledAssets: null }, 'enabledAssets must be an array'],
      [{ quoteLimit: [] }, 'quoteLimit must be an object mapping asset codes to amounts'],
      [{ quoteLimit: null }, 'quoteLimit must be an object'],
      [{ quoteLimit: 5 }, 'quoteLimit must be an object'],
      [
        { quoteLimit: { eur: 1 } },
        'quoteLimit keys must be asset codes of 2 to 12 capital letters or digits (got "eur")',
      ],
      [
        { quoteLimit: { EUR: -1 } },
        'quoteLimit values must be a number of at least 0 with at most 8 decimals (EUR is not)',
      ],
      [{ totalLimit: { EUR: 0.123456789 } }, 'totalLimit values must be a number of at least 0'],
      [{ totalExposure: { EUR: '1' } }, 'totalExposure values must be'],
      [{ assetExposure: { BTC: 1e31 } }, 'assetExposure values must have at most 30 digits before the point'],
      [{ assetExposure: many }, 'assetExposure must hold at most 100 entries'],
      [
        { commissionRate: 1 },
        'commissionRate must be a number from 0 up to (not including) 1 with at most 8 decimals',
      ],
      [{ commissionRate: -0.1 }, 'commissionRate must be a number from 0'],
      [{ commissionRate: 0.123456789 }, 'commissionRate must be'],
      [{ commissionRate: '0.1' }, 'commissionRate must be'],
      [{ vatRate: null }, 'vatRate must be'],
      [{ vatRate: 1.5 }, 'vatRate must be'],
      [{ vatRate: 0.2, plan: 'STANDARD' }, 'property plan should not exist'],
      [{ quoteLimit: { EUR: 5 }, vatRate: 2 }, 'vatRate must be'],
    ])('%j is a 400 naming the field, and nothing is written', async (body, message) => {
      const before = await snapshot();
      expect400(await patch(body), message);
      expect(await snapshot()).toEqual(before);
    });

    it('stores limits and rates digit for digit, and refuses prototype keys in a map', async () => {
      const patchText = (text: string) =>
        api.admin<OrgData>('PATCH', `/api/v1/admin/orgs/${org.orgId}/policy/`, { rawBody: text });
      const response = await patchText(
        '{"quoteLimit":{"EUR":123456789012345678901234567890.12345678},"vatRate":0.12345678}',
      );
      expect(response.status).toBe(200);
      expect(response.text).toContain('"EUR":123456789012345678901234567890.12345678');
      const [row] = await api.rows<{ limit: string; vat: string }>(
        "SELECT policy->'quoteLimit'->>'EUR' AS limit, policy->>'vatRate' AS vat FROM organisations WHERE id = $1",
        [org.orgId],
      );
      expect(row).toEqual({ limit: '123456789012345678901234567890.12345678', vat: '0.12345678' });

      const before = await snapshot();
      for (const key of ['constructor', '__proto__', 'prototype']) {
        expect400(await patchText(`{"quoteLimit":{"${key}":5}}`), `the key "${key}" is not accepted`);
      }
      expect400(
        await patchText('{"totalLimit":{"EUR":1000000000000000000000000000000}}'),
        'totalLimit values must have at most 30 digits before the point (EUR is not)',
      );
      expect(await snapshot()).toEqual(before);
    });

    it('refuses an unknown or malformed orgId', async () => {
      const before = await snapshot();
      expect((await patch({ vatRate: 0.1 }, 999999)).status).toBe(404);
      expect400(await patch({ vatRate: 0.1 }, 'abc'), 'orgId must be an integer');
      expect(await snapshot()).toEqual(before);
    });
  });

  describe('system notices', () => {
    let active: OrgSession[];
    let failed: OrgSession;
    let none: OrgSession;
    beforeAll(async () => {
      active = [await api.createOrg(), await api.createOrg(), await api.createOrg()];
      failed = await api.createOrg();
      none = await api.createOrg();
      for (const [session, status] of [
        ...active.map((s) => [s, 'ACTIVE'] as const),
        [failed, 'CHALLENGE_FAILED'] as const,
      ]) {
        await api.rows(
          `INSERT INTO webhook_endpoints (org_id, url, secret_ciphertext, status) VALUES ($1, 'https://example.com/hook', 'x', $2)`,
          [session.orgId, status],
        );
      }
    });

    const publish = (body: unknown) => api.admin<NoticeData>('POST', '/api/v1/admin/notices/', { body });
    const eventsOf = (message: string) =>
      api.rows<{ id: string; org_id: number; data: string }>(
        `SELECT id, org_id, data::text AS data FROM events
         WHERE entity = 'SystemInformation' AND data->>'message' = $1 ORDER BY org_id`,
        [message],
      );
    /** Whether orders would see the pair halted now (the orders module's rule). */
    const halted = async (symbol: string) =>
      (await count(
        `trading_halts WHERE symbol = $1 AND (starts_at IS NULL OR starts_at <= now())
         AND (ends_at IS NULL OR ends_at > now())`,
        [symbol],
      )) === 1;

    it('a notice goes to exactly the organisations with an ACTIVE webhook, fields in the API guide order', async () => {
      const activeCount = await count("webhook_endpoints WHERE status = 'ACTIVE'");
      const response = await publish({
        event: 'MAINTENANCE_ALERTS',
        entity: 'matching engine',
        message: 'Maintenance on Sunday',
        startTime: '2030-01-06T03:00:00+02:00',
        endTime: '2030-01-06T01:30:00.5Z',
      });
      expect(response.status).toBe(200);
      expect(response.body.data).toEqual({
        id: expect.any(String) as string,
        event: 'MAINTENANCE_ALERTS',
        entity: 'matching engine',
        message: 'Maintenance on Sunday',
        startTime: '2030-01-06T01:00:00.000Z',
        endTime: '2030-01-06T01:30:00.500Z',
        createdAt: expect.any(String) as string,
        recipients: activeCount,
      });
      const events = await eventsOf('Maintenance on Sunday');
      expect(events.map((event) => event.org_id)).toEqual(expect.arrayContaining(active.map((s) => s.orgId)));
      expect(events).toHaveLength(activeCount);
      expect(events.map((event) => event.org_id)).not.toContain(failed.orgId);
      expect(events.map((event) => event.org_id)).not.toContain(none.orgId);
      for (const event of events) {
        expect(event.data).toBe(
          '{"event":"MAINTENANCE_ALERTS","entity":"matching engine","message":"Maintenance on Sunday",' +
            '"startTime":"2030-01-06T01:00:00.000Z","endTime":"2030-01-06T01:30:00.500Z"}',
        );
        expect(await jobFor(event.id)).toBe(1);
      }
      expect(await lastAudit('notice.publish')).toEqual({
        actor: 'admin@ops.test',
        org_id: null,
        details: {
          noticeId: response.body.data!.id,
          event: 'MAINTENANCE_ALERTS',
          entity: 'matching engine',
          message: 'Maintenance on Sunday',
          startTime: '2030-01-06T01:00:00.000Z',
          endTime: '2030-01-06T01:30:00.500Z',
          recipients: activeCount,
        },
      });
    });

    it('times may be null or absent, written null', async () => {
      const response = await publish({
        event: 'MAINTENANCE_ALERTS',
        entity: 'api',
        message: 'Now',
        startTime: null,
      });
      expect(response.body.data).toMatchObject({ startTime: null, endTime: null });
      const [event] = await eventsOf('Now');
      expect(event!.data).toBe(
        '{"event":"MAINTENANCE_ALERTS","entity":"api","message":"Now","startTime":null,"endTime":null}',
      );
    });

    it('ASSET_DISABLE halts the pair; ASSET_ENABLE ends the halt', async () => {
      const disable = await publish({ event: 'ASSET_DISABLE', entity: 'BTC_EUR', message: 'BTC_EUR paused' });
      expect(disable.status).toBe(200);
      expect(await api.rows('SELECT symbol, notice_id, starts_at, ends_at FROM trading_halts')).toEqual([
        { symbol: 'BTC_EUR', notice_id: disable.body.data!.id, starts_at: null, ends_at: null },
      ]);
      expect(await halted('BTC_EUR')).toBe(true);

      const enable = await publish({ event: 'ASSET_ENABLE', entity: 'BTC_EUR', message: 'BTC_EUR back' });
      expect(enable.status).toBe(200);
      expect(await halted('BTC_EUR')).toBe(false);
      const [row] = await api.rows<{ notice_id: string; ends_at: Date }>(
        'SELECT notice_id, ends_at FROM trading_halts',
      );
      expect(row!.notice_id).toBe(disable.body.data!.id);
      expect(Math.abs(row!.ends_at.getTime() - Date.now())).toBeLessThan(60_000);
      expect((await eventsOf('BTC_EUR back')).length).toBe(active.length);
    });

    it('a scheduled halt starts and ends at the notice times; ASSET_ENABLE never lengthens a halt', async () => {
      const start = new Date(Date.now() - 60_000).toISOString();
      const end = new Date(Date.now() + 3_600_000).toISOString();
      await publish({
        event: 'ASSET_DISABLE',
        entity: 'ETH_EUR',
        message: 'ETH window',
        startTime: start,
        endTime: end,
      });
      expect(await halted('ETH_EUR')).toBe(true);
      const later = new Date(Date.now() + 7_200_000).toISOString();
      await publish({ event: 'ASSET_ENABLE', entity: 'ETH_EUR', message: 'ETH later', startTime: later });
      const [row] = await api.rows<{ ends_at: Date }>(
        "SELECT ends_at FROM trading_halts WHERE symbol = 'ETH_EUR'",
      );
      expect(row!.ends_at.toISOString()).toBe(end);
      const sooner = new Date(Date.now() + 600_000).toISOString();
      await publish({ event: 'ASSET_ENABLE', entity: 'ETH_EUR', message: 'ETH sooner', startTime: sooner });
      const [after] = await api.rows<{ ends_at: Date }>(
        "SELECT ends_at FROM trading_halts WHERE symbol = 'ETH_EUR'",
      );
      expect(after!.ends_at.toISOString()).toBe(sooner);
      expect(await halted('ETH_EUR')).toBe(true);

      const future = new Date(Date.now() + 3_600_000).toISOString();
      await publish({ event: 'ASSET_DISABLE', entity: 'SOL_EUR', message: 'SOL later', startTime: future });
      expect(await halted('SOL_EUR')).toBe(false);
    });

    it('ASSET_ENABLE of a pair that was never halted creates no halt', async () => {
      await publish({ event: 'ASSET_ENABLE', entity: 'XRP_EUR', message: 'XRP listed' });
      expect(await count("trading_halts WHERE symbol = 'XRP_EUR'")).toBe(0);
    });

    it('lists notices oldest first with the common cursor, and gets one by id', async () => {
      const first = await api.admin<Page<NoticeData>>('GET', '/api/v1/admin/notices/?limit=2');
      expect(first.status).toBe(200);
      expect(first.body.data!.items.map((item) => item.message)).toEqual(['Maintenance on Sunday', 'Now']);
      const rest = await api.admin<Page<NoticeData>>(
        'GET',
        `/api/v1/admin/notices/?limit=100&cursor=${first.body.data!.nextCursor}`,
      );
      expect(rest.body.data!.items[0]!.message).toBe('BTC_EUR paused');
      const id = first.body.data!.items[0]!.id;
      const one = await api.admin<NoticeData>('GET', `/api/v1/admin/notices/${id}/`);
      expect(one.body.data).toEqual(first.body.data!.items[0]);
      expect(one.body.data).not.toHaveProperty('recipients');
      expect((await api.admin('GET', '/api/v1/admin/notices/999999/')).status).toBe(404);
      expect400(await api.admin('GET', '/api/v1/admin/notices/abc/'), 'id must be an integer');
    });

    const ok = { event: 'MAINTENANCE_ALERTS', entity: 'api', message: 'hello' };
    it.each([
      [{ ...ok, event: 'OUTAGE' }, 'event must be one of MAINTENANCE_ALERTS, ASSET_ENABLE, ASSET_DISABLE'],
      [{ ...ok, event: undefined }, 'event must be one of'],
      [{ ...ok, entity: '' }, 'entity must be 1 to 128 characters'],
      [{ ...ok, entity: '   ' }, 'entity must be 1 to 128 characters'],
      [{ ...ok, entity: 'x'.repeat(129) }, 'entity must be 1 to 128 characters'],
      [{ ...ok, entity: 5 }, 'entity must be a string'],
      [
        { ...ok, event: 'ASSET_DISABLE', entity: 'bitcoin' },
        'entity must be a trading pair for ASSET_ENABLE and ASSET_DISABLE',
      ],
      [{ ...ok, event: 'ASSET_ENABLE', entity: 'BTC-EUR' }, 'entity must be a trading pair'],
      [{ ...ok, message: '' }, 'message must be 1 to 2000 characters'],
      [
        { ...ok, message: 'a\u0007b' },
        'message must be 1 to 2000 characters, not blank, without control characters',
      ],
      [{ ...ok, message: 'line\nbreak' }, 'message must be'],
      [{ ...ok, message: 'x'.repeat(2001) }, 'message must be'],
      [{ ...ok, message: undefined }, 'message must be'],
      [
        { ...ok, startTime: '2030-01-01T10:00:00' },
        'startTime must be null or an ISO 8601 date and time with a zone',
      ],
      [{ ...ok, startTime: '2030-02-30T10:00:00Z' }, 'startTime must be null or an ISO 8601'],
      [{ ...ok, startTime: '2030-01-01 10:00:00Z' }, 'startTime must be'],
      [{ ...ok, startTime: '2030-01-01T10:00:00.1234Z' }, 'startTime must be'],
      [{ ...ok, startTime: 1893456000000 }, 'startTime must be'],
      [{ ...ok, endTime: '' }, 'endTime must be null or an ISO 8601'],
      [{ ...ok, endTime: '2030-01-01T25:00:00Z' }, 'endTime must be'],
      [
        { ...ok, startTime: '2030-01-01T10:00:00Z', endTime: '2030-01-01T10:00:00Z' },
        'endTime must be after startTime',
      ],
      [
        { ...ok, startTime: '2030-01-01T10:00:00Z', endTime: '2030-01-01T11:00:00+02:00' },
        'endTime must be after startTime',
      ],
      [{ ...ok, extra: 1 }, 'property extra should not exist'],
    ])('%j is a 400 naming the field, and nothing is written', async (body, message) => {
      const before = await snapshot();
      expect400(await publish(body), message);
      expect(await snapshot()).toEqual(before);
    });

    it('fans out to 2,000 organisations in one request within a few seconds: one event and one job each', async () => {
      await api.rows(
        `WITH orgs AS (
           INSERT INTO organisations (name, kyc_domain, plan, policy)
           SELECT 'bulk-' || n, 'example.com', 'STANDARD', '{}'::jsonb FROM generate_series(1, 2000) AS n
           RETURNING id)
         INSERT INTO webhook_endpoints (org_id, url, secret_ciphertext, status)
         SELECT id, 'https://example.com/hook', 'x', 'ACTIVE' FROM orgs`,
      );
      const activeCount = await count("webhook_endpoints WHERE status = 'ACTIVE'");
      expect(activeCount).toBe(2000 + active.length);
      const started = performance.now();
      const response = await publish({ event: 'MAINTENANCE_ALERTS', entity: 'all', message: 'Bulk notice' });
      const elapsed = performance.now() - started;
      expect(response.status).toBe(200);
      expect(response.body.data!.recipients).toBe(activeCount);
      expect(elapsed).toBeLessThan(3000);
      const ids = await api.rows<{ id: string; org_id: number }>(
        `SELECT id, org_id FROM events WHERE entity = 'SystemInformation' AND data->>'message' = 'Bulk notice'`,
      );
      const row = {
        events: ids.length,
        orgs: new Set(ids.map((e) => e.org_id)).size,
        jobs: await api.queuedFor(ids.map((e) => e.id)),
      };
      expect(row).toEqual({ events: activeCount, orgs: activeCount, jobs: activeCount });
      process.stdout.write(`fan-out to ${activeCount} organisations: ${elapsed.toFixed(0)} ms\n`);
    });
  });

  it('documents every new route in /openapi.json with the operator credentials, its role and its path parameters', async () => {
    const document = (await api.request('GET', '/openapi.json')).body as unknown as {
      paths: Record<
        string,
        Record<
          string,
          { security?: unknown; parameters?: { name: string; in: string }[]; 'x-operator-role'?: string }
        >
      >;
    };
    const routes: [string, string, string[], string][] = [
      ['/api/v1/admin/prices', 'get', [], 'SUPPORT'],
      ['/api/v1/admin/prices/{symbol}', 'get', ['symbol'], 'SUPPORT'],
      ['/api/v1/admin/prices/{symbol}', 'put', ['symbol'], 'TRADING_OPS'],
      ['/api/v1/admin/prices/{symbol}', 'delete', ['symbol'], 'TRADING_OPS'],
      ['/api/v1/admin/orgs/{orgId}/policy', 'patch', ['orgId'], 'TRADING_OPS'],
      ['/api/v1/admin/notices', 'post', [], 'TRADING_OPS'],
      ['/api/v1/admin/notices', 'get', [], 'SUPPORT'],
      ['/api/v1/admin/notices/{id}', 'get', ['id'], 'SUPPORT'],
    ];
    for (const [path, method, parameters, role] of routes) {
      const operation = document.paths[path]?.[method];
      expect({ path, method, security: operation?.security, role: operation?.['x-operator-role'] }).toEqual({
        path,
        method,
        security: [{ [SECURITY_SCHEMES.operatorToken]: [] }, { [SECURITY_SCHEMES.operatorSession]: [] }],
        role,
      });
      const inPath = (operation?.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
      expect(inPath).toEqual(parameters);
    }
  });

  describe('the admin CLI', () => {
    beforeAll(() => {
      if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build the api first (turbo run build)`);
    });

    const cli = (args: string[]) =>
      execFileAsync(process.execPath, [CLI, ...args], {
        env: { PATH: process.env.PATH ?? '', SVC_URL: api.baseUrl, SVC_OPERATOR_TOKEN: api.adminToken },
      }).then(
        ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
        (error: unknown) => error as { code: number; stdout: string; stderr: string },
      );
    const json = async <T>(args: string[]): Promise<T> => {
      const { code, stdout, stderr } = await cli([...args, '--json']);
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
      expect(stdout.trim().split('\n')).toHaveLength(1);
      return JSON.parse(stdout) as T;
    };

    it('prices set, get, list and delete', async () => {
      expect(await json<PriceData>(['prices', 'set', 'DOT_EUR', '7.12345678'])).toMatchObject({
        symbol: 'DOT_EUR',
        price: 7.12345678,
      });
      expect(await api.rows("SELECT price FROM prices WHERE symbol = 'DOT_EUR'")).toEqual([
        { price: '7.12345678' },
      ]);
      expect(await json<PriceData>(['prices', 'get', 'DOT_EUR'])).toMatchObject({ price: 7.12345678 });
      const list = await json<Page<PriceData>>(['prices', 'list', '--limit', '100']);
      expect(list.items.map((item) => item.symbol)).toContain('DOT_EUR');
      const text = await cli(['prices', 'list']);
      expect(text.stdout).toMatch(/^symbol\s+price\s+updatedAt\n/);
      expect(await json<PriceData>(['prices', 'delete', 'DOT_EUR'])).toMatchObject({ symbol: 'DOT_EUR' });
      const gone = await cli(['prices', 'get', 'DOT_EUR']);
      expect(gone).toMatchObject({ code: 1, stderr: 'Not Found: no price for DOT_EUR\n' });
    });

    it.each([
      ['1.123456789', 'price must have at most 8 decimals'],
      ['1234567890123456789012345678901', 'price must have at most 30 digits before the point'],
      ['1e5', 'price must be a decimal number'],
      ['+1', 'price must be a decimal number'],
      ['-1.123456789', 'price must have at most 8 decimals'],
    ])('prices set refuses %s before calling the api (exit 2)', async (price, message) => {
      const before = await snapshot();
      const result = await cli(['prices', 'set', 'DOT_EUR', '--', price]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(message);
      expect(await snapshot()).toEqual(before);
    });

    it('prices set sends the digits given, and --json prints the answer digit for digit', async () => {
      const result = await cli([
        'prices',
        'set',
        '--json',
        'DOT_EUR',
        '123456789012345678901234567890.12345678',
      ]);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('"price":123456789012345678901234567890.12345678,');
      expect(await api.rows("SELECT price FROM prices WHERE symbol = 'DOT_EUR'")).toEqual([
        { price: '123456789012345678901234567890.12345678' },
      ]);
      const text = await cli(['prices', 'get', 'DOT_EUR']);
      expect(text.stdout).toContain('123456789012345678901234567890.12345678');
      await cli(['prices', 'delete', 'DOT_EUR']);
    });

    it('a negative price after -- reaches the api and gets its 400 (exit 1), storing nothing', async () => {
      const before = await snapshot();
      const result = await cli(['prices', 'set', 'DOT_EUR', '--', '-5']);
      expect(result).toMatchObject({ code: 1, stdout: '' });
      expect(result.stderr).toMatch(/^Bad Request: .*price/);
      const json = await cli(['prices', 'set', 'DOT_EUR', '--json', '--', '-5']);
      expect(json.code).toBe(1);
      expect(JSON.parse(json.stderr)).toMatchObject({ error: { kind: 'api', status: 400 } });
      expect(await snapshot()).toEqual(before);
    });

    it('policy set sends every flag as the api names it; "" clears a map', async () => {
      const org = await api.createOrg();
      const data = await json<OrgData>([
        'policy',
        'set',
        String(org.orgId),
        '--enabled-assets',
        'BTC,ETH',
        '--quote-limit',
        'EUR=1000,USD=900.12345678',
        '--total-limit',
        'EUR=5000',
        '--total-exposure',
        'EUR=0',
        '--asset-exposure',
        'BTC=2',
        '--commission-rate',
        '0.0015',
        '--vat-rate',
        '0.21',
      ]);
      expect(data.policy).toEqual({
        enabledAssets: ['BTC', 'ETH'],
        quoteLimit: { EUR: 1000, USD: 900.12345678 },
        totalLimit: { EUR: 5000 },
        totalExposure: { EUR: 0 },
        assetExposure: { BTC: 2 },
        commissionRate: 0.0015,
        vatRate: 0.21,
      });
      expect(await count("events WHERE org_id = $1 AND entity = 'Actions'", [org.orgId])).toBe(5);
      const cleared = await json<OrgData>(['policy', 'set', String(org.orgId), '--quote-limit', '']);
      expect(cleared.policy.quoteLimit).toEqual({});
      const bad = await cli(['policy', 'set', String(org.orgId), '--quote-limit', 'EUR']);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('--quote-limit takes CODE=amount pairs');
      const refused = await cli(['policy', 'set', String(org.orgId), '--vat-rate', '1']);
      expect(refused).toMatchObject({ code: 1 });
      expect(refused.stderr).toContain('vatRate must be');
    });

    it('notices publish and list', async () => {
      const notice = await json<NoticeData>([
        'notices',
        'publish',
        '--event',
        'ASSET_DISABLE',
        '--entity',
        'ADA_EUR',
        '--message',
        'ADA paused by the CLI',
        '--start',
        '2030-01-01T00:00:00Z',
      ]);
      expect(notice).toMatchObject({
        event: 'ASSET_DISABLE',
        entity: 'ADA_EUR',
        startTime: '2030-01-01T00:00:00.000Z',
      });
      expect(await count("trading_halts WHERE symbol = 'ADA_EUR'")).toBe(1);
      const list = await json<Page<NoticeData>>(['notices', 'list', '--limit', '100']);
      expect(list.items.map((item) => item.message)).toContain('ADA paused by the CLI');
      const missing = await cli(['notices', 'publish', '--event', 'ASSET_DISABLE']);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain('missing --entity, --message');
    });

    it('--help lists the new commands', async () => {
      const { stdout } = await cli(['--help']);
      for (const command of [
        'prices set',
        'prices list',
        'prices get',
        'prices delete',
        'policy set',
        'notices publish',
        'notices list',
      ])
        expect(stdout).toContain(`  ${command} `);
    });
  });
});
