/** @type {import('jest').Config} */
module.exports = {
  // The node environment, and a report of the sockets, servers and timers a suite leaves open.
  testEnvironment: '<rootDir>/test/helpers/handleCheckingEnvironment.js',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022', parser: { syntax: 'typescript' } } }] },
  testTimeout: 30000,
  // Integration suites start lite servers, chains and TVM threads of their own, and several
  // assert health-probe timing: one suite at a time keeps them honest on a 2-core machine.
  maxWorkers: 1,
};
