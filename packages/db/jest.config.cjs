/** @type {import('jest').Config} */
module.exports = {
  ...require('../../jest.preset.cjs'),
  globalSetup: '<rootDir>/dist/testing/global-setup.js',
  globalTeardown: '<rootDir>/dist/testing/global-teardown.js',
};
