/** @type {import('jest').Config} */
module.exports = {
  ...require('../../jest.preset.cjs'),
  roots: ['<rootDir>/test'],
  // Packing, an offline npm install and a Node process per example and Node of the matrix.
  testTimeout: 120000,
};
