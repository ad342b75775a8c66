// Three projects, run in order by `npm test` (scripts/test.js):
// - unit:     specs beside the code and test/unit (no services);
// - e2e:      test/e2e, the same end-to-end cases run twice: embedded (PGlite + in-process
//             jobs) and, with DATABASE_URL and REDIS_URL, on Postgres + Bull (TEST_MODE=services);
// - services: test/services, what only real services can show (several processes, COPY at scale).
const base = {
  testEnvironment: 'node',
  moduleFileExtensions: ['ts', 'js', 'json'],
  transform: { '^.+\\.ts$': ['ts-jest', { diagnostics: false }] },
  setupFiles: ['reflect-metadata'],
  rootDir: __dirname,
};

module.exports = {
  projects: [
    { ...base, displayName: 'unit', testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/unit/**/*.spec.ts'] },
    { ...base, displayName: 'e2e', testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts'] },
    { ...base, displayName: 'services', testMatch: ['<rootDir>/test/services/**/*.spec.ts'] },
  ],
};
