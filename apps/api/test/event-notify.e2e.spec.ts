// The outbox's NOTIFY, which wakes the event streams of every api instance: sent by the statement that
// inserts the event, so PostgreSQL delivers it at commit (never for a rollback) with the organisation's id;
// a broadcast names every organisation it reached, or `*` when they would not fit in a notification.
import { EVENTS_CHANNEL } from '@svc/db';
import pg from 'pg';

import { OutboxService } from '../src/outbox/outbox.service.js';
import { ApiFixture } from './support/app-fixture.js';

describe('the outbox notifies the event streams', () => {
  let api: ApiFixture;
  let listener: pg.Client;
  const payloads: string[] = [];

  beforeAll(async () => {
    api = await ApiFixture.start();
    listener = new pg.Client({ connectionString: api.db.url });
    await listener.connect();
    listener.on('notification', (message) => {
      if (message.channel === EVENTS_CHANNEL) payloads.push(message.payload ?? '');
    });
    await listener.query(`LISTEN ${EVENTS_CHANNEL}`);
  });
  afterAll(async () => {
    await listener.end();
    await api.close();
  });

  const settle = () => new Promise((resolve) => setTimeout(resolve, 200));

  it("sends the organisation's id at commit, nothing before it and nothing for a rollback", async () => {
    payloads.length = 0;
    const org = await api.createOrg();
    const events = api.app.get(OutboxService);
    const data = { name: 'QUOTE_LIMIT', newValues: { EUR: 1 } };
    for (const outcome of ['commit', 'rollback'] as const) {
      payloads.length = 0;
      const runner = api.dataSource.createQueryRunner();
      await runner.startTransaction();
      await events.record(runner.manager, { orgId: org.orgId, entity: 'Actions', data });
      await settle();
      expect(payloads).toEqual([]);
      if (outcome === 'commit') await runner.commitTransaction();
      else await runner.rollbackTransaction();
      await runner.release();
      await settle();
      expect(payloads).toEqual(outcome === 'commit' ? [String(org.orgId)] : []);
    }
  });

  it('notifies once for several events written together, at commit only', async () => {
    const orgs = [await api.createOrg(), await api.createOrg()];
    const events = api.app.get(OutboxService);
    const many = [orgs[0], orgs[1], orgs[0]].map((org, n) => ({
      orgId: org!.orgId,
      entity: 'Actions' as const,
      data: { name: 'QUOTE_LIMIT', n },
    }));
    for (const outcome of ['commit', 'rollback'] as const) {
      payloads.length = 0;
      const runner = api.dataSource.createQueryRunner();
      await runner.startTransaction();
      const ids = await events.recordMany(runner.manager, many);
      await settle();
      expect(payloads).toEqual([]);
      if (outcome === 'commit') await runner.commitTransaction();
      else await runner.rollbackTransaction();
      await runner.release();
      await settle();
      const stored = await api.rows<{ id: string }>(
        'SELECT id FROM events WHERE id = ANY($1::uuid[]) ORDER BY created_at, id',
        [ids],
      );
      if (outcome === 'commit') {
        expect(payloads.map((p) => p.split(',').sort())).toEqual([
          orgs.map((org) => String(org.orgId)).sort(),
        ]);
        expect(stored.map((row) => row.id).sort()).toEqual([...ids].sort());
      } else {
        expect([payloads, stored]).toEqual([[], []]);
      }
    }
  });

  it('names every organisation a broadcast reached, or * for more than fit', async () => {
    payloads.length = 0;
    const orgs = [await api.createOrg(), await api.createOrg()];
    const endpoints = async (orgIds: number[]) =>
      api.rows(
        `INSERT INTO webhook_endpoints (org_id, url, secret_ciphertext, status)
         SELECT id, 'https://hooks.example.com/', 'x', 'ACTIVE' FROM unnest($1::int[]) AS id`,
        [orgIds],
      );
    await endpoints(orgs.map((org) => org.orgId));
    const broadcast = () =>
      api.dataSource.transaction((manager) =>
        api.app.get(OutboxService).broadcast(manager, { entity: 'SystemInformation', data: { event: 'x' } }),
      );
    expect(await broadcast()).toBe(2);
    await settle();
    expect(payloads.map((p) => p.split(',').sort())).toEqual([orgs.map((org) => String(org.orgId)).sort()]);

    const many = await api.rows<{ id: number }>(
      `INSERT INTO organisations (name, kyc_domain, plan, support_emails, policy)
       SELECT 'many-' || n, 'example.com', 'STANDARD', '{}', '{}' FROM generate_series(1, 2000) n RETURNING id`,
    );
    await endpoints(many.map((org) => org.id));
    payloads.length = 0;
    expect(await broadcast()).toBe(2002);
    await settle();
    expect(payloads).toEqual(['*']);
  });
});
