// Every organisation method of the client against the real api (built, on the embedded PostgreSQL, over
// loopback HTTP), once with the API key and once with OAuth client credentials.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import {
  SvcClient,
  SvcConflictError,
  SvcNotFoundError,
  SvcValidationError,
  createWebhookHandler,
  isEntityEvent,
  type WebhookEvent,
} from '../src/index.js';
import { PNG, clientsOf, createOrg, newUserId, until, type OrgCredentials } from './support/fixture.js';

const SECRET = 'whsec_client-e2e-secret-0123456789';

describe.each(['signed', 'oauth'] as const)('SvcClient (%s) against the real api', (method) => {
  let org: OrgCredentials;
  let client: SvcClient;

  beforeAll(async () => {
    org = await createOrg();
    client = clientsOf(org)[method];
  });

  it('org.get answers the caller organisation', async () => {
    const answer = await client.org.get();
    expect(answer).toMatchObject({
      orgId: org.orgId,
      plan: 'ENTERPRISE',
      kycDomain: 'localhost',
      webhook: null,
    });
    expect(answer.policy.enabledAssets).toEqual(expect.any(Array));
  });

  it('users.create, get and update, with the API guide record and the api view', async () => {
    const orgUserId = newUserId();
    const created = await client.users.create({ orgUserId, kyc: false, tnc: false });
    expect(created).toMatchObject({
      orgUserId,
      orgId: org.orgId,
      kyc: false,
      tnc: false,
      userStatus: 'PENDING',
      userType: 'CONSUMER',
      kycState: 'NONE',
    });
    expect(await client.users.get(orgUserId)).toEqual(created);
    const updated = await client.users.update(orgUserId, { tnc: true });
    expect(updated.tnc).toBe(true);
    expect((await client.users.get(orgUserId)).tnc).toBe(true);
  });

  it('users.list is one page when awaited and every user when iterated', async () => {
    const fresh = await createOrg();
    const own = clientsOf(fresh)[method];
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push(
        (await own.users.create({ orgUserId: newUserId(`p${i}`), kyc: i % 2 === 0, tnc: true })).orgUserId,
      );

    const first = await own.users.list({ limit: 2 });
    expect(first.items.map((user) => user.orgUserId)).toEqual(ids.slice(0, 2));
    expect(first.nextCursor).toEqual(expect.any(String));

    const all: string[] = [];
    for await (const user of own.users.list({ limit: 2 })) all.push(user.orgUserId);
    expect(all).toEqual(ids);

    const pages = [];
    for await (const page of own.users.list({ limit: 2 }).pages()) pages.push(page.items.length);
    expect(pages).toEqual([2, 2, 1]);

    const active = await own.users.list({ kyc: true, limit: 100 }).toArray();
    expect(active.map((user) => user.orgUserId)).toEqual([ids[0], ids[2], ids[4]]);
    expect(active.every((user) => user.userStatus === 'ACTIVE')).toBe(true);
  });

  it('kyc.uploadDocument, submitForm and get walk the KYC steps', async () => {
    const orgUserId = (await client.users.create({ orgUserId: newUserId('kyc'), kyc: false, tnc: true }))
      .orgUserId;
    const uploaded = await client.kyc.uploadDocument(orgUserId, {
      file: PNG,
      fileName: 'passport.png',
      contentType: 'image/png',
      docCategory: 'IDENTITY',
      docSubCategory: 'PASSPORT',
    });
    expect(uploaded.kycState).toBe('KYC_DOC_UPLOADED');
    expect(uploaded.documents).toEqual([
      expect.objectContaining({
        docCategory: 'IDENTITY',
        docSubCategory: 'PASSPORT',
        fileName: 'passport.png',
        contentType: 'image/png',
        sizeBytes: PNG.length,
      }),
    ]);

    // A second file in the same second: its own SHA-256 in the signed query keeps the signatures apart.
    const second = await client.kyc.uploadDocument(orgUserId, {
      file: new Blob([PNG, new Uint8Array([9])], { type: 'image/png' }),
      docCategory: 'ADDRESS',
      docSubCategory: 'UTILITY_BILL',
    });
    expect(second.documents).toHaveLength(2);

    const form = {
      firstName: 'Ann',
      lastName: "O'Brien",
      dateOfBirth: '1990-02-03',
      nationality: 'GB',
      address: { line1: '1 High Street', city: 'London', postalCode: 'N1 1AA', country: 'GB' },
    };
    const submitted = await client.kyc.submitForm(orgUserId, form);
    expect(submitted.kycState).toBe('KYC_FORM_SUBMITTED');
    expect(submitted.form).toEqual(form);
    expect(await client.kyc.get(orgUserId)).toEqual(submitted);
  });

  it('oauth.test answers the object sent, keys in the order sent', async () => {
    const body = { b: 1, a: [true, null], '10': 'ten', nested: { price: 55.5 } };
    const echoed = await client.oauth.test(body);
    expect(echoed).toEqual(body);
  });

  it('dashboard.createSession answers a sign-in link that opens, and endAllSessions voids it', async () => {
    const link = await client.dashboard.createSession({
      permissions: ['MANAGE_WEBHOOKS'],
      pages: ['WEBHOOK', 'EVENTS'],
      lifetimeSeconds: 600,
    });
    expect(link).toMatchObject({
      permissions: ['MANAGE_WEBHOOKS'],
      pages: ['WEBHOOK', 'EVENTS'],
      lifetimeSeconds: 600,
    });
    expect(link.url).toMatch(/\/dashboard\/sign-in\?token=/);
    expect((await fetch(link.url)).status).toBe(200);
    expect(await client.dashboard.endAllSessions()).toEqual({ sessionsEnded: 0, linksRevoked: 1 });
    expect((await fetch(link.url)).status).toBe(401);
    await expect(client.dashboard.createSession({ lifetimeSeconds: 10 })).rejects.toBeInstanceOf(
      SvcValidationError,
    );
  });

  describe('webhooks', () => {
    let server: Server;
    let url: string;
    const received: { event: WebhookEvent; eventId: string | undefined }[] = [];

    beforeAll(async () => {
      const handler = createWebhookHandler({
        secret: SECRET,
        onEvent: (event, { eventId }) => {
          received.push({ event, eventId });
        },
      });
      server = createServer(handler.node);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://localhost:${(server.address() as AddressInfo).port}/hooks`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('register (the handler answers the challenge), get, deliveries, redeliver and delete', async () => {
      const registered = await client.webhooks.register({ url, secret: SECRET });
      expect(registered).toMatchObject({
        url,
        status: 'ACTIVE',
        challengePassed: true,
        challengeError: null,
      });
      expect(await client.webhooks.get()).toMatchObject({ url, status: 'ACTIVE' });
      expect((await client.org.get()).webhook).toEqual({ url, status: 'ACTIVE' });

      const orgUserId = newUserId('hook');
      await client.users.create({ orgUserId, kyc: false, tnc: true });
      await until('the Users event', () =>
        received.some(({ event }) => isEntityEvent(event, 'Users') && event.data.orgUserId === orgUserId),
      );
      const delivery = received.find(
        ({ event }) => isEntityEvent(event, 'Users') && event.data.orgUserId === orgUserId,
      )!;
      expect(delivery.eventId).toEqual(expect.any(String));
      const eventId = delivery.eventId!;

      await until(
        'the attempt in the log',
        async () => (await client.webhooks.deliveries.list({ eventId })).items.length > 0,
      );
      const log = await client.webhooks.deliveries.list({ eventId, delivered: true });
      expect(log.items[0]).toMatchObject({ eventId, url, delivered: true, statusCode: 200, manual: false });

      expect(await client.webhooks.redeliver(eventId)).toEqual({ eventId, status: 'QUEUED' });
      await until('the redelivery', () => received.filter((r) => r.eventId === eventId).length === 2);
      const again = received.filter((r) => r.eventId === eventId)[1]!;
      expect(again.event.event.numRetries).toBe(1);
      await until('the manual attempt in the log', async () =>
        (await client.webhooks.deliveries.list({ eventId }).toArray()).some((attempt) => attempt.manual),
      );

      expect(await client.webhooks.delete()).toEqual({ url, deleted: true });
      await expect(client.webhooks.get()).rejects.toBeInstanceOf(SvcNotFoundError);
    });
  });

  it('refusals come back as typed errors with the status, the error text and the request id', async () => {
    const invalid = await client.users
      .create({ orgUserId: 'not valid!', kyc: false, tnc: false })
      .catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(SvcValidationError);
    const validation = invalid as SvcValidationError;
    expect(validation.status).toBe(400);
    expect(validation.errorText).toMatch(/orgUserId must be 1 to 128 characters/);
    expect(validation.requestId).toEqual(expect.any(String));
    expect(validation.message).toContain(validation.requestId);
    await expect(client.users.get('not valid!')).rejects.toBeInstanceOf(SvcNotFoundError);

    const orgUserId = newUserId('dup');
    await client.users.create({ orgUserId, kyc: false, tnc: false });
    const duplicate = await client.users
      .create({ orgUserId, kyc: false, tnc: false })
      .catch((e: unknown) => e);
    expect(duplicate).toBeInstanceOf(SvcConflictError);
    expect((duplicate as SvcConflictError).status).toBe(409);

    const missing = await client.kyc.get(newUserId('nobody')).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(SvcNotFoundError);
    expect((missing as SvcNotFoundError).errorText).toMatch(/^Not Found/);
  });
});
