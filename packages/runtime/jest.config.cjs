/** @type {import('jest').Config} */
module.exports = {
  ...require('../../jest.preset.cjs'),
  testTimeout: 10000,
};
