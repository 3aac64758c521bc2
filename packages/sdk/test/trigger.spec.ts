// `svc trigger`'s command line without an api: the event's name to the route's body, the credentials and
// their default scope, and each mistake as a UsageError that names it (exit status 2, in main).
import { DEFAULT_TRIGGER_SCOPES, triggerOptions, triggerParams } from '../src/cli/trigger.js';
import { UsageError } from '../src/cli/listen-options.js';
import { main } from '../src/cli/main.js';

const KEY_ENV = { SVC_URL: 'http://127.0.0.1:9', SVC_API_KEY: 'key', SVC_API_SECRET: 'secret' };

describe('svc trigger options', () => {
  it.each([
    ['KYC_COMPLETED', undefined, { entity: 'Users', eventType: 'KYC_COMPLETED' }],
    ['KYC_RFI', 'user-1', { entity: 'Users', eventType: 'KYC_RFI', orgUserId: 'user-1' }],
    ['Users', undefined, { entity: 'Users' }],
    ['Orders', 'user-2', { entity: 'Orders', orgUserId: 'user-2' }],
    ['SystemInformation', undefined, { entity: 'SystemInformation' }],
  ])('%s (user %s) is the body %j', (name, user, body) => {
    expect(triggerParams(name, user)).toEqual(body);
  });

  it('takes the credentials of the environment, an OAuth client with BASE_MODULE:WRITE by default', () => {
    expect(triggerOptions(['Actions'], KEY_ENV)).toEqual({
      help: false,
      event: { entity: 'Actions' },
      client: { baseUrl: KEY_ENV.SVC_URL, apiKey: 'key', apiSecret: 'secret' },
    });
    const oauth = triggerOptions(['Users'], {
      SVC_URL: 'http://127.0.0.1:9',
      SVC_CLIENT_ID: 'id',
      SVC_CLIENT_SECRET: 'secret',
    });
    expect(oauth.help ? null : oauth.client).toMatchObject({
      clientId: 'id',
      scopes: DEFAULT_TRIGGER_SCOPES,
    });
    expect(DEFAULT_TRIGGER_SCOPES).toBe('BASE_MODULE:WRITE');
    expect(triggerOptions(['--help'], {})).toEqual({ help: true });
  });

  it.each([
    [[], 'name one event'],
    [['KYC_COMPLETED', 'Orders'], 'name one event'],
    [['Trades'], 'unknown event "Trades"'],
    [['Actions', '--user', 'u-1'], '--user applies to Users, Orders and the KYC events only'],
    [['Users', '--colour'], "Unknown option '--colour'"],
  ])('refuses %j: %s', (argv, message) => {
    expect(() => triggerOptions(argv, KEY_ENV)).toThrow(UsageError);
    expect(() => triggerOptions(argv, KEY_ENV)).toThrow(message);
  });

  it('refuses a missing api address, and main answers a mistake with one line and exit 2', async () => {
    expect(() => triggerOptions(['Users'], {})).toThrow('the api address is missing');
    const stderr: string[] = [];
    const status = await main(['trigger', 'Trades'], {
      stdout: () => undefined,
      stderr: (text) => stderr.push(text),
      env: KEY_ENV,
      signal: new AbortController().signal,
    });
    expect(status).toBe(2);
    expect(stderr).toEqual([
      expect.stringMatching(/^svc trigger: unknown event "Trades".*\(svc trigger --help\)\n$/),
    ]);
  });
});
