// jest globalSetup: one PostgreSQL server per test run, the embedded one unless DATABASE_URL names a
// server. Each test file then gets a fresh database of its own (createTestDatabase).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startEmbeddedPostgres, type RunningPostgres } from '../dev.js';

declare global {
  var svcTestPostgres: RunningPostgres | undefined;
}

export default async function globalSetup(): Promise<void> {
  if (process.env.DATABASE_URL) {
    process.env.SVC_TEST_PG_URL = process.env.DATABASE_URL;
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'svc-test-pg-'));
  const server = await startEmbeddedPostgres({ dir, persistent: false });
  globalThis.svcTestPostgres = server;
  process.env.SVC_TEST_PG_URL = server.url();
}
