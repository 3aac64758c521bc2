// jest globalSetup: one PostgreSQL server per test run, the embedded one unless DATABASE_URL names a
// server, and on it one migrated template database that every test file clones (createTestDatabase).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startEmbeddedPostgres, type RunningPostgres } from '../dev.js';
import { createTemplateDatabase } from './index.js';

declare global {
  var svcTestPostgres: RunningPostgres | undefined;
  var svcTestTemplate: { readonly serverUrl: string; readonly name: string } | undefined;
}

/**
 * A throwaway cluster need not survive a crash: no flush to disk on commit or checkpoint (docs/decisions.md,
 * "Testing: tests in tiers"). Only here: `npm start`'s server keeps PostgreSQL's defaults.
 */
const TEST_SERVER_SETTINGS = { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' };

export default async function globalSetup(): Promise<void> {
  let serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    const dir = mkdtempSync(join(tmpdir(), 'svc-test-pg-'));
    const server = await startEmbeddedPostgres({ dir, persistent: false, settings: TEST_SERVER_SETTINGS });
    globalThis.svcTestPostgres = server;
    serverUrl = server.url();
    process.env.SVC_TEST_PG_NO_FSYNC = '1';
  }
  const template = await createTemplateDatabase(serverUrl);
  globalThis.svcTestTemplate = { serverUrl, name: template };
  process.env.SVC_TEST_PG_URL = serverUrl;
  process.env.SVC_TEST_PG_TEMPLATE = template;
}
