// END TO END against the real api and worker (test/support/services.mjs): the `svc trigger` command itself
// (cli/main.ts, run in-process as `svc listen` is in listen.e2e.spec.ts) on a sandbox organisation. The event
// it names is recorded (in the event log) and delivered to the organisation's webhook, where the SDK's own
// handler verifies it; both kinds of credentials work; a live organisation is refused with exit status 1,
// a mistake on the command line with 2, and neither records anything.
import { isEntityEvent, type SvcClient } from '../src/index.js';
import { clientsOf, createOrg, newUserId, services, until, type OrgCredentials } from './support/fixture.js';
import { run, startReceiver } from './support/listener.js';

const SECRET = 'whsec_trigger-e2e-worker-0123456789';
const TRIGGERED = /^Triggered (\w+): event ([0-9a-f-]{36})(?: about user (\S+)( \(created for it\))?)?$/;

describe('svc trigger against the real api', () => {
  let sandbox: OrgCredentials;
  let live: OrgCredentials;
  let client: SvcClient;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  const keyEnv = (org: OrgCredentials) => ({
    SVC_URL: services().baseUrl,
    SVC_API_KEY: org.apiKey,
    SVC_API_SECRET: org.apiSecret,
  });

  beforeAll(async () => {
    [sandbox, live] = await Promise.all([
      createOrg('BASE_MODULE:READWRITE MANAGE_USERS:READWRITE', 'SANDBOX'),
      createOrg(),
    ]);
    client = clientsOf(sandbox).signed;
    receiver = await startReceiver();
    receiver.useSecret(SECRET);
    const registered = await client.webhooks.register({
      url: receiver.url.replace('127.0.0.1', 'localhost'),
      secret: SECRET,
    });
    expect(registered).toMatchObject({ status: 'ACTIVE', challengePassed: true });
  });
  afterAll(() => receiver.close());

  /** Runs `svc trigger` to its end: its exit status and output lines. */
  async function trigger(argv: string[], env: Record<string, string>) {
    const command = run(['trigger', ...argv], env);
    const status = await command.exit;
    return { status, stdout: command.stdout.filter(Boolean), stderr: command.stderr.filter(Boolean) };
  }

  /** The events of the organisation in its log, newest first. */
  const logged = async (org: OrgCredentials) => {
    const ids: string[] = [];
    for await (const entry of clientsOf(org).signed.events.list({ limit: 100 })) ids.push(entry.id);
    return ids;
  };

  it('records a KYC event about a named user, which the webhook receives, signed', async () => {
    const orgUserId = newUserId('trigger');
    await client.users.create({ orgUserId, kyc: false, tnc: true });

    const done = await trigger(['KYC_COMPLETED', '--user', orgUserId], keyEnv(sandbox));
    expect(done).toEqual({ status: 0, stdout: [expect.stringMatching(TRIGGERED)], stderr: [] });
    const [, name, eventId, user, created] = TRIGGERED.exec(done.stdout[0]!)!;
    expect([name, user, created]).toEqual(['KYC_COMPLETED', orgUserId, undefined]);

    const entry = await client.events.get(eventId!);
    expect(entry.body.event).toMatchObject({
      orgId: sandbox.orgId,
      entity: 'Users',
      eventType: 'KYC_COMPLETED',
    });
    expect(entry.body.data).toMatchObject({ orgUserId, kyc: true, userStatus: 'ACTIVE' });
    await until(
      'the delivery',
      () => receiver.handled.some((handled) => handled.eventId === eventId),
      30_000,
    );
    const [delivered] = receiver.handled.filter((handled) => handled.eventId === eventId);
    expect(isEntityEvent(delivered!.event, 'Users')).toBe(true);
    expect(delivered!.event).toEqual(entry.body);
  });

  it('with an OAuth client (scope BASE_MODULE:WRITE by default), for a new sandbox user', async () => {
    const done = await trigger(['Orders'], {
      SVC_URL: services().baseUrl,
      SVC_CLIENT_ID: sandbox.clientId,
      SVC_CLIENT_SECRET: sandbox.clientSecret,
    });
    expect(done.status).toBe(0);
    const [, name, eventId, user, created] = TRIGGERED.exec(done.stdout[0] ?? '') ?? [];
    expect([name, created]).toEqual(['Orders', ' (created for it)']);
    expect(user).toMatch(/^sandbox-/);
    const entry = await client.events.get(eventId!);
    expect(entry.body).toMatchObject({ event: { entity: 'Orders' }, data: { orgUserId: user } });
    await expect(client.users.get(user!)).resolves.toMatchObject({ orgUserId: user });
  });

  it('is refused for a live organisation (exit 1) and for a bad command line (exit 2), recording nothing', async () => {
    const before = await logged(live);
    const refused = await trigger(['Users'], keyEnv(live));
    expect(refused.status).toBe(1);
    expect(refused.stdout).toEqual([]);
    expect(refused.stderr).toEqual([expect.stringMatching(/^svc trigger: .*sandbox organisations/)]);
    expect(await logged(live)).toEqual(before);

    const sandboxBefore = await logged(sandbox);
    const unknown = await trigger(['Trades'], keyEnv(sandbox));
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toEqual([expect.stringContaining('unknown event "Trades"')]);
    const misplaced = await trigger(['Actions', '--user', 'someone'], keyEnv(sandbox));
    expect(misplaced.status).toBe(2);
    expect(misplaced.stderr).toEqual([expect.stringContaining('--user applies to')]);
    expect(await logged(sandbox)).toEqual(sandboxBefore);
  });
});
