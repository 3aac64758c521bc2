// The api's tests in four jest projects, each runnable alone (`--selectProjects <name>`, or the package's
// test:<name> script) and all four in one run by `test` (docs/decisions.md, "Testing: tests in tiers"):
// - unit: pure code, no database and no server (specs beside their code in src/, and in test/);
// - e2e: the api over real HTTP on its own database, and the built package as an embedder meets it
//   (*.e2e.spec.ts);
// - browser: pages in a real Chromium (*.browser.spec.ts);
// - security: attacks on the service (test/security/<topic>.security.spec.ts).
const preset = require('../../jest.preset.cjs');

/** What a project whose tests talk to PostgreSQL adds: the run's server and its template database. */
const withDatabase = {
  globalSetup: require.resolve('@svc/db/testing/global-setup'),
  globalTeardown: require.resolve('@svc/db/testing/global-teardown'),
};

// Every spec file is in exactly one project: one named for no other tier is a unit test, so a file misnamed or
// misplaced still runs (and fails loudly if it needs a database) rather than silently in none.
/** @type {import('jest').Config} */
module.exports = {
  // One embedded PostgreSQL serves every file; two workers keep both cores busy without starving it.
  maxWorkers: 2,
  testTimeout: 20000,
  projects: [
    {
      ...preset,
      displayName: 'unit',
      testPathIgnorePatterns: [
        '/node_modules/',
        '\\.(e2e|browser)\\.spec\\.ts$',
        '/test/security/.+\\.security\\.spec\\.ts$',
      ],
    },
    { ...preset, ...withDatabase, displayName: 'e2e', testMatch: ['**/*.e2e.spec.ts'] },
    {
      ...preset,
      ...withDatabase,
      displayName: 'browser',
      testMatch: ['**/*.browser.spec.ts'],
    },
    {
      ...preset,
      ...withDatabase,
      displayName: 'security',
      testMatch: ['<rootDir>/test/security/**/*.security.spec.ts'],
    },
  ],
};
