// Three projects so `make test` can run fast unit tests first and the ones that
// need real NATS/PostgreSQL/anvil/git afterwards, serially. Each project's test timeout is its
// `globals.testTimeoutMs`, applied by test/support/timeout.ts (Jest ignores a project's `testTimeout`).
const base = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.(t|j)sx?$': ['@swc/jest', { jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } }],
  },
  moduleNameMapper: { '^@lineage/(vocabulary|report-view|schemas|service-kit|engine|registry)$': '<rootDir>/libs/$1/src/index.ts' },
  // A few dependencies ship ESM only; compile them to CommonJS like our own sources.
  transformIgnorePatterns: ['/node_modules/(?!(@seriousme)/)'],
  modulePathIgnorePatterns: ['<rootDir>/.*/dist/', '<rootDir>/.tools/', '<rootDir>/.dev/', '<rootDir>/.cache/'],
  rootDir: __dirname,
  setupFilesAfterEnv: ['<rootDir>/test/support/timeout.ts'],
};
module.exports = {
  projects: [
    {
      ...base,
      displayName: 'unit',
      globals: { testTimeoutMs: 30000 },
      // bench/accuracy/score.test.ts: the accuracy benchmark's scoring rules (pure, fast).
      testMatch: ['<rootDir>/{libs,services}/*/test/**/*.test.ts', '<rootDir>/bench/accuracy/*.test.ts'],
      testPathIgnorePatterns: ['\\.int\\.test\\.ts$'],
    },
    {
      ...base,
      displayName: 'integration',
      testMatch: ['<rootDir>/{libs,services}/*/test/**/*.int.test.ts', '<rootDir>/test/integration/**/*.test.ts'],
      globals: { testTimeoutMs: 60000 },
    },
    // Every API response an e2e test sees must be one the OpenAPI document describes (test/support/observed-statuses.ts).
    {
      ...base,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/e2e/**/*.test.ts'],
      globals: { testTimeoutMs: 180000 },
      setupFilesAfterEnv: [...base.setupFilesAfterEnv, '<rootDir>/test/support/observed-statuses.ts'],
    },
  ],
};
