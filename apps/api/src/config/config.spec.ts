import 'reflect-metadata';

import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { ConfigError, loadConfig } from './config.js';

const MASTER_KEY = randomBytes(32).toString('base64');
const ADMIN_TOKEN = 'a'.repeat(32);

/** The lines of the ConfigError `env` gives, or [] when it loads. */
function problems(env: Record<string, string>): string[] {
  try {
    loadConfig({ MASTER_KEY, ADMIN_TOKEN, ...env });
    return [];
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    const [header, ...lines] = error.message.split('\n');
    expect(header).toBe('invalid configuration:');
    return lines.map((line) => line.trim());
  }
}

describe('loadConfig', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'svc-config-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('has defaults for development and hands out a frozen object', () => {
    const config = loadConfig({ DATA_DIR: dataDir, MASTER_KEY, ADMIN_TOKEN });
    expect(config).toMatchObject({
      env: 'development',
      port: 3000,
      host: '127.0.0.1',
      databaseUrl: undefined,
      dataDir,
      adminToken: ADMIN_TOKEN,
      tokenTtlSeconds: 3600,
      signatureWindow: { maxAgeSeconds: 300, maxAheadSeconds: 3900 },
      bodyLimitBytes: 1024 * 1024,
      tokenRateLimitPerMinute: 30,
      logLevel: 'info',
      operators: {
        sessionIdleMinutes: 30,
        sessionMaxHours: 12,
        stepUpMinutes: 5,
        tokenMaxDays: 90,
        setupHours: 72,
        signIn: { accountLimit: 5, accountPerMinute: 10, addressLimit: 30, windowMinutes: 15 },
      },
    });
    expect(config.masterKey).toEqual(Buffer.from(MASTER_KEY, 'base64'));
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.signatureWindow)).toBe(true);
    expect(loadConfig({ DATA_DIR: dataDir, MASTER_KEY, ADMIN_TOKEN, NODE_ENV: 'test' }).logLevel).toBe(
      'silent',
    );
  });

  it('reads numbers and names from their variables', () => {
    const config = loadConfig({
      DATA_DIR: dataDir,
      MASTER_KEY,
      ADMIN_TOKEN,
      PORT: '8080',
      HOST: '0.0.0.0',
      DATABASE_URL: 'postgres://svc:pw@db:5432/svc',
      TOKEN_TTL_SECONDS: '600',
      BODY_LIMIT_BYTES: '2048',
      LOG_LEVEL: 'debug',
      OPERATOR_SESSION_IDLE_MINUTES: '10',
      OPERATOR_SESSION_MAX_HOURS: '8',
      OPERATOR_STEP_UP_MINUTES: '2',
      OPERATOR_TOKEN_MAX_DAYS: '30',
      OPERATOR_SETUP_HOURS: '24',
      SIGN_IN_ACCOUNT_LIMIT: '3',
      SIGN_IN_ACCOUNT_PER_MINUTE: '4',
      SIGN_IN_ADDRESS_LIMIT: '10',
      SIGN_IN_WINDOW_MINUTES: '5',
    });
    expect(config).toMatchObject({
      operators: {
        sessionIdleMinutes: 10,
        sessionMaxHours: 8,
        stepUpMinutes: 2,
        tokenMaxDays: 30,
        setupHours: 24,
        signIn: { accountLimit: 3, accountPerMinute: 4, addressLimit: 10, windowMinutes: 5 },
      },
      port: 8080,
      host: '0.0.0.0',
      databaseUrl: 'postgres://svc:pw@db:5432/svc',
      tokenTtlSeconds: 600,
      bodyLimitBytes: 2048,
      logLevel: 'debug',
    });
  });

  it('sweeps resting orders every second by default, never under NODE_ENV=test unless told', () => {
    expect(loadConfig({ DATA_DIR: dataDir, MASTER_KEY, ADMIN_TOKEN }).orderSweepMs).toBe(1000);
    expect(loadConfig({ DATA_DIR: dataDir, MASTER_KEY, ADMIN_TOKEN, NODE_ENV: 'test' }).orderSweepMs).toBe(0);
    expect(
      loadConfig({ DATA_DIR: dataDir, MASTER_KEY, ADMIN_TOKEN, ORDER_SWEEP_MS: '250' }).orderSweepMs,
    ).toBe(250);
  });

  it('outside production, generates the missing master key into DATA_DIR once; ADMIN_TOKEN is never made up', () => {
    const first = loadConfig({ DATA_DIR: dataDir });
    expect(first.masterKey).toHaveLength(32);
    expect(first.adminToken).toBeNull();
    expect(readdirSync(dataDir).sort()).toEqual(['master.key']);
    expect(statSync(join(dataDir, 'master.key')).mode & 0o777).toBe(0o600);
    const second = loadConfig({ DATA_DIR: dataDir });
    expect(second.masterKey).toEqual(first.masterKey);
  });

  it.each([
    [
      'NODE_ENV',
      'staging',
      'NODE_ENV: must be one of the following values: development, production, test (got "staging")',
    ],
    ['PORT', 'abc', 'PORT: must be an integer number (got "abc")'],
    ['PORT', '70000', 'PORT: must not be greater than 65535 (got "70000")'],
    ['PORT', '-1', 'PORT: must not be less than 0 (got "-1")'],
    ['OPERATOR_STEP_UP_MINUTES', '0', 'OPERATOR_STEP_UP_MINUTES: must not be less than 1 (got "0")'],
    [
      'DATABASE_URL',
      'mysql://svc:hunter2@db/svc',
      'DATABASE_URL: must be a URL address (got "mysql://svc:***@db/svc")',
    ],
    ['MASTER_KEY', 'short', 'MASTER_KEY: must be base64 encoded (got 5 characters, not shown)'],
    [
      'MASTER_KEY',
      randomBytes(24).toString('base64'),
      'MASTER_KEY: must be longer than or equal to 44 characters (got 32 characters, not shown)',
    ],
    [
      'ADMIN_TOKEN',
      'tooshort',
      'ADMIN_TOKEN: must be longer than or equal to 32 characters (got 8 characters, not shown)',
    ],
    ['TOKEN_TTL_SECONDS', '30', 'TOKEN_TTL_SECONDS: must not be less than 60 (got "30")'],
    ['SIGNATURE_MAX_AGE_SECONDS', '1.5', 'SIGNATURE_MAX_AGE_SECONDS: must be an integer number (got "1.5")'],
    ['BODY_LIMIT_BYTES', '10', 'BODY_LIMIT_BYTES: must not be less than 1024 (got "10")'],
    ['TOKEN_RATE_LIMIT_PER_MINUTE', '0', 'TOKEN_RATE_LIMIT_PER_MINUTE: must not be less than 1 (got "0")'],
    ['ORDER_SWEEP_MS', '-1', 'ORDER_SWEEP_MS: must not be less than 0 (got "-1")'],
    ['ORDER_SWEEP_MS', '3600001', 'ORDER_SWEEP_MS: must not be greater than 3600000 (got "3600001")'],
    [
      'LOG_LEVEL',
      'loud',
      'LOG_LEVEL: must be one of the following values: fatal, error, warn, info, debug, trace, silent (got "loud")',
    ],
  ])('refuses %s=%s with one line naming it and the rule', (name, value, line) => {
    expect(problems({ DATA_DIR: dataDir, [name]: value })).toEqual([line]);
  });

  it('never prints a secret it refuses', () => {
    const nearMiss = `${MASTER_KEY.slice(0, -2)}!!`;
    const text = problems({ DATA_DIR: dataDir, MASTER_KEY: nearMiss, ADMIN_TOKEN: 'short-admin-token' }).join(
      '\n',
    );
    expect(text).not.toContain(nearMiss);
    expect(text).not.toContain('short-admin-token');
  });

  it('reports every bad variable at once, one line each', () => {
    expect(problems({ DATA_DIR: dataDir, PORT: 'x', LOG_LEVEL: 'loud', BODY_LIMIT_BYTES: '1' })).toEqual([
      'PORT: must be an integer number (got "x")',
      'BODY_LIMIT_BYTES: must not be less than 1024 (got "1")',
      'LOG_LEVEL: must be one of the following values: fatal, error, warn, info, debug, trace, silent (got "loud")',
    ]);
  });

  it('in production, requires DATABASE_URL and MASTER_KEY (ADMIN_TOKEN only bootstraps) and generates nothing', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: dataDir })).toThrow(ConfigError);
    try {
      loadConfig({ NODE_ENV: 'production', DATA_DIR: dataDir });
    } catch (error) {
      expect((error as Error).message.split('\n').slice(1)).toEqual([
        '  DATABASE_URL: required in production (the embedded PostgreSQL is for development)',
        '  MASTER_KEY: required in production (32 random bytes, base64)',
        '  PUBLIC_URL: required in production (where people reach the api, e.g. https://api.example.com: ' +
          'the links the api hands out start with it)',
      ]);
    }
    const config = loadConfig({
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      DATABASE_URL: 'postgres://svc:svc@db:5432/svc',
      MASTER_KEY,
      ADMIN_TOKEN,
      PUBLIC_URL: 'https://api.example.com',
    });
    expect(config).toMatchObject({ env: 'production', logLevel: 'info', adminToken: ADMIN_TOKEN });
    expect(readdirSync(dataDir)).toEqual([]);
    expect(
      loadConfig({
        NODE_ENV: 'production',
        DATA_DIR: dataDir,
        DATABASE_URL: 'postgres://svc:svc@db:5432/svc',
        MASTER_KEY,
        PUBLIC_URL: 'https://api.example.com',
      }).adminToken,
    ).toBeNull();
  });

  it('runs no market-data feed by default, and reads one with its pairs and timings', () => {
    expect(loadConfig({ DATA_DIR: dataDir, MASTER_KEY }).marketData).toEqual({
      feed: null,
      url: '',
      symbols: [],
      tickIntervalMs: 1000,
      staleMs: 30_000,
      reconnectMs: 1000,
    });
    expect(
      loadConfig({
        DATA_DIR: dataDir,
        MASTER_KEY,
        MARKET_DATA_FEED: 'binance',
        MARKET_DATA_SYMBOLS: ' BTC_EUR, ETH_EUR,BTC_EUR ',
        MARKET_DATA_TICK_INTERVAL_MS: '250',
      }).marketData,
    ).toMatchObject({
      feed: 'binance',
      url: 'wss://stream.binance.com:9443/stream',
      symbols: ['BTC_EUR', 'ETH_EUR'],
      tickIntervalMs: 250,
    });
  });

  it('refuses a bad market-data configuration, one line per variable', () => {
    expect(
      problems({
        DATA_DIR: dataDir,
        MARKET_DATA_FEED: 'kraken',
        MARKET_DATA_URL: 'https://stream.binance.com/stream',
        MARKET_DATA_SYMBOLS: 'BTC_EUR,btc-eur',
        MARKET_DATA_TICK_INTERVAL_MS: '5',
        MARKET_DATA_STALE_MS: 'soon',
        MARKET_DATA_RECONNECT_MS: '120000',
      }),
    ).toEqual([
      'MARKET_DATA_FEED: must be one of the following values: off, binance (got "kraken")',
      'MARKET_DATA_URL: must be a URL address (got "https://stream.binance.com/stream")',
      'MARKET_DATA_TICK_INTERVAL_MS: must not be less than 10 (got "5")',
      'MARKET_DATA_STALE_MS: must be an integer number (got "soon")',
      'MARKET_DATA_RECONNECT_MS: must not be greater than 60000 (got "120000")',
      expect.stringMatching(/^MARKET_DATA_SYMBOLS: each must be BASE_QUOTE: .* \(got "btc-eur"\)$/),
    ]);
    expect(problems({ DATA_DIR: dataDir, MARKET_DATA_FEED: 'binance' })).toEqual([
      'MARKET_DATA_SYMBOLS: required with MARKET_DATA_FEED=binance (e.g. BTC_EUR,ETH_EUR)',
    ]);
    // Both are ABCDE on Binance: its stream could not say which pair a trade is of.
    expect(
      problems({ DATA_DIR: dataDir, MARKET_DATA_FEED: 'binance', MARKET_DATA_SYMBOLS: 'AB_CDE,ABC_DE' }),
    ).toEqual(['MARKET_DATA_SYMBOLS: AB_CDE and ABC_DE are both ABCDE on binance']);
    expect(
      problems({ DATA_DIR: dataDir, MARKET_DATA_FEED: 'off', MARKET_DATA_SYMBOLS: 'AB_CDE,ABC_DE' }),
    ).toEqual([]);
  });
});
