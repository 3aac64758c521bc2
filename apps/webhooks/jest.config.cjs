// The worker's tests in two jest projects, each runnable alone (`--selectProjects <name>`, or the package's
// test:<name> script) and both in one run by `test` (docs/decisions.md, "Testing: tests in tiers"): unit (pure
// code, no database) and e2e (the worker against PostgreSQL and receivers on loopback, *.e2e.spec.ts).
const preset = require('../../jest.preset.cjs');

/** @type {import('jest').Config} */
module.exports = {
  // One embedded PostgreSQL serves every file; two workers keep both cores busy without starving it.
  maxWorkers: 2,
  testTimeout: 30000,
  projects: [
    { ...preset, displayName: 'unit', testPathIgnorePatterns: ['/node_modules/', '\\.e2e\\.spec\\.ts$'] },
    {
      ...preset,
      displayName: 'e2e',
      testMatch: ['**/*.e2e.spec.ts'],
      globalSetup: require.resolve('@svc/db/testing/global-setup'),
      globalTeardown: require.resolve('@svc/db/testing/global-teardown'),
    },
  ],
};
