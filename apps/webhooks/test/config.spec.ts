import { randomBytes } from 'node:crypto';

import { ConfigError, loadConfig } from '../src/config.js';

const BASE = { NODE_ENV: 'test', MASTER_KEY: randomBytes(32).toString('base64') };

function problems(env: Record<string, string>): readonly string[] {
  try {
    loadConfig({ ...BASE, ...env });
    return [];
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error.problems;
  }
}

describe('the worker configuration', () => {
  it('has defaults and hands out a frozen object', () => {
    const config = loadConfig(BASE);
    expect(config).toMatchObject({ fetchers: 12, perEndpointConcurrency: 8, pollIntervalMs: 2000 });
    // Operations beside the api's default 3000, so npm start runs both as they are.
    expect(config).toMatchObject({ port: 3001, host: '127.0.0.1', metricsToken: undefined });
    expect(config.retryDelaysMs).toEqual([60000, 600000, 6000000]);
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('caps a Retry-After at the delivery window unless told otherwise', () => {
    expect(loadConfig(BASE).retryAfterMaxMs).toBe(86_400_000);
    expect(loadConfig({ ...BASE, WEBHOOK_WINDOW_MS: '3000' }).retryAfterMaxMs).toBe(3000);
    expect(loadConfig({ ...BASE, WEBHOOK_RETRY_AFTER_MAX_MS: '60000' }).retryAfterMaxMs).toBe(60_000);
    expect(problems({ WEBHOOK_RETRY_AFTER_MAX_MS: '-1' })).toEqual([
      'WEBHOOK_RETRY_AFTER_MAX_MS: must not be less than 0 (got "-1")',
    ]);
  });

  it('refuses bad variables with one line each, a URL password hidden', () => {
    expect(
      problems({
        WEBHOOK_POLL_INTERVAL_MS: '100',
        WEBHOOK_RETRY_JITTER: '1.5',
        SMTP_URL: 'http://user:hunter2@mail',
        LOG_LEVEL: 'loud',
      }),
    ).toEqual([
      'WEBHOOK_RETRY_JITTER: must be a fraction in [0, 1) (got "1.5")',
      'WEBHOOK_POLL_INTERVAL_MS: must not be less than 500 (got "100")',
      'SMTP_URL: must be smtp://[user:password@]host[:port] or smtps://... (got "http://user:***@mail")',
      'LOG_LEVEL: must be one of the following values: fatal, error, warn, info, debug, trace, silent (got "loud")',
    ]);
    expect(problems({ WEBHOOK_FETCHERS: '4' })).toEqual([
      'WEBHOOK_FETCHERS: must be more than WEBHOOK_CONCURRENCY_PER_ENDPOINT',
    ]);
  });

  it('reads WORKER_PORT, WORKER_HOST and METRICS_TOKEN, and names a bad port', () => {
    const token = 'k'.repeat(32);
    expect(
      loadConfig({ ...BASE, WORKER_PORT: '0', WORKER_HOST: '0.0.0.0', METRICS_TOKEN: token }),
    ).toMatchObject({
      port: 0,
      host: '0.0.0.0',
      metricsToken: token,
    });
    expect(problems({ WORKER_PORT: '70000' })).toEqual([
      'WORKER_PORT: must not be greater than 65535 (got "70000")',
    ]);
    expect(problems({ WORKER_PORT: 'web' })).toEqual(['WORKER_PORT: must be an integer number (got "web")']);
  });

  it('checks MASTER_KEY as the api does, and requires it in production', () => {
    expect(problems({ MASTER_KEY: 'short' })).toEqual([
      'MASTER_KEY: must be base64 encoded (got 5 characters, not shown)',
    ]);
    expect(problems({ NODE_ENV: 'production', MASTER_KEY: '' })).toContain(
      'MASTER_KEY: required in production (32 random bytes, base64)',
    );
  });
});
