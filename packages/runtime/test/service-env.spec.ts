import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { DEVELOPMENT_POLICY, STRICT_POLICY } from '@svc/webhook-sender';

import { ConfigError } from '../src/env.js';
import {
  loadServiceEnvironment,
  serviceSettings,
  ServiceEnvironment,
  type ServiceSettings,
} from '../src/service-env.js';

const PRODUCTION = { NODE_ENV: 'production', DATABASE_URL: 'postgres://svc:svc@db:5432/svc' };

/** The settings of `source`, or the problem lines it is refused with. */
function load(source: Record<string, string>, root = '/nonexistent') {
  try {
    return serviceSettings(loadServiceEnvironment(ServiceEnvironment, source), root);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    expect(error.message.split('\n')[0]).toBe('invalid configuration:');
    return error.problems;
  }
}

/** The settings of a valid `source`. */
function settings(source: Record<string, string>): ServiceSettings {
  return serviceSettings(loadServiceEnvironment(ServiceEnvironment, source), '/nonexistent');
}

describe('the variables both services share', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'svc-runtime-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('the master key npm start generates passes the production check, as the same 32 bytes', () => {
    const development = settings({ DATA_DIR: dataDir });
    const written = readFileSync(join(dataDir, 'master.key'), 'utf8').trim();
    const production = settings({ ...PRODUCTION, MASTER_KEY: written });
    expect(production.env).toBe('production');
    expect(development.masterKey).toHaveLength(32);
    expect(production.masterKey).toEqual(development.masterKey);
  });

  it('reads a master key file written as base64url by an earlier version to the same bytes', () => {
    const key = randomBytes(32);
    writeFileSync(join(dataDir, 'master.key'), `${key.toString('base64url')}\n`);
    expect(load({ DATA_DIR: dataDir })).toMatchObject({ masterKey: key });
  });

  it.each([
    ['short', 'MASTER_KEY: must be base64 encoded (got 5 characters, not shown)'],
    [
      randomBytes(24).toString('base64'),
      'MASTER_KEY: must be longer than or equal to 44 characters (got 32 characters, not shown)',
    ],
    [`${'A'.repeat(42)}==`, 'MASTER_KEY: must decode to 32 bytes (got 44 characters, not shown)'],
  ])('refuses MASTER_KEY=%s the same way for every service, never echoing it', (key, line) => {
    expect(load({ ...PRODUCTION, MASTER_KEY: key })).toEqual([line]);
  });

  it('in production requires DATABASE_URL and MASTER_KEY and writes nothing', () => {
    expect(load({ NODE_ENV: 'production', DATA_DIR: dataDir })).toEqual([
      'DATABASE_URL: required in production (the embedded PostgreSQL is for development)',
      'MASTER_KEY: required in production (32 random bytes, base64)',
    ]);
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it('METRICS_TOKEN: unset leaves /metrics open; a short one is refused without being echoed', () => {
    const key = randomBytes(32).toString('base64');
    expect(load({ MASTER_KEY: key })).toMatchObject({ metricsToken: undefined });
    const token = 'm'.repeat(32);
    expect(load({ MASTER_KEY: key, METRICS_TOKEN: token })).toMatchObject({ metricsToken: token });
    expect(load({ MASTER_KEY: key, METRICS_TOKEN: 'too-short-secret' })).toEqual([
      'METRICS_TOKEN: must be longer than or equal to 32 characters (got 16 characters, not shown)',
    ]);
  });

  it('hides the password of a URL it refuses', () => {
    expect(load({ DATA_DIR: dataDir, DATABASE_URL: 'mysql://svc:hunter2@db/svc' })).toEqual([
      'DATABASE_URL: must be a URL address (got "mysql://svc:***@db/svc")',
    ]);
  });

  it('receiver policy: follows the mode when nothing is set', () => {
    const key = randomBytes(32).toString('base64');
    expect(load({ MASTER_KEY: key })).toMatchObject({ webhooks: { receivers: DEVELOPMENT_POLICY } });
    expect(load({ ...PRODUCTION, MASTER_KEY: key })).toMatchObject({
      webhooks: { receivers: STRICT_POLICY, windowMs: 86_400_000 },
    });
    expect(load({ NODE_ENV: 'test', MASTER_KEY: key })).toMatchObject({
      webhooks: { receivers: STRICT_POLICY },
    });
  });

  it('receiver policy and window: reads WEBHOOK_ALLOW_HTTP, WEBHOOK_ALLOWED_NETWORKS, WEBHOOK_WINDOW_MS', () => {
    const key = randomBytes(32).toString('base64');
    expect(
      load({
        ...PRODUCTION,
        MASTER_KEY: key,
        WEBHOOK_ALLOW_HTTP: 'true',
        WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32, ::1',
        WEBHOOK_WINDOW_MS: '1500',
      }),
    ).toMatchObject({
      webhooks: { receivers: { allowHttp: true, allowedNetworks: ['127.0.0.1/32', '::1'] }, windowMs: 1500 },
    });
    expect(load({ MASTER_KEY: key, WEBHOOK_ALLOWED_NETWORKS: '' })).toMatchObject({
      webhooks: { receivers: { allowedNetworks: [] } },
    });
  });

  it('names each bad WEBHOOK_* variable', () => {
    expect(
      load({
        DATA_DIR: dataDir,
        WEBHOOK_ALLOW_HTTP: 'yes',
        WEBHOOK_ALLOWED_NETWORKS: '10.0.0.0/99',
        WEBHOOK_WINDOW_MS: '-1',
      }),
    ).toEqual([
      'WEBHOOK_ALLOW_HTTP: must be one of the following values: true, false (got "yes")',
      'WEBHOOK_ALLOWED_NETWORKS: "10.0.0.0/99" is not an IP network (write it like 127.0.0.0/8 or ::1/128) (got "10.0.0.0/99")',
      'WEBHOOK_WINDOW_MS: must not be less than 1 (got "-1")',
    ]);
  });
});
