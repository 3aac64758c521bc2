/** @type {import('jest').Config} */
module.exports = {
  ...require('../../jest.preset.cjs'),
  globalSetup: require.resolve('@svc/db/testing/global-setup'),
  globalTeardown: require.resolve('@svc/db/testing/global-teardown'),
  // One embedded PostgreSQL serves every file; two workers keep both cores busy without starving it.
  maxWorkers: 2,
  testTimeout: 30000,
};
