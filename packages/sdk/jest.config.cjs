/** @type {import('jest').Config} */
module.exports = {
  ...require('../../jest.preset.cjs'),
  // One api, worker and PostgreSQL for the whole run (test/support/services.mjs).
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  maxWorkers: 2,
  testTimeout: 20000,
};
