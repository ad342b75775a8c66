// Three projects, run in order by `npm test` (scripts/test.js):
// - unit:     specs beside the code and test/unit (no services);
// - e2e:      test/e2e, the same end-to-end cases run twice: embedded (PGlite + in-process
//             jobs) and, with DATABASE_URL and REDIS_URL, on Postgres + Bull (TEST_MODE=services);
// - services: test/services, what only real services can show (several processes, COPY at scale).
/**
 * Specs are compiled by SWC, as tsconfig.json compiles the service (ES2022, CommonJS, Nest's
 * legacy decorators with their type metadata): a fresh clone's runs transform every file, and
 * SWC does that at a fraction of ts-jest's CPU. Types are checked by `npm run lint`, not here.
 */
const SWC = {
  jsc: {
    target: 'es2022',
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: true },
    keepClassNames: true,
  },
  module: { type: 'commonjs' },
  sourceMaps: 'inline',
};

const base = {
  testEnvironment: 'node',
  moduleFileExtensions: ['ts', 'js', 'json'],
  transform: { '^.+\\.ts$': ['@swc/jest', SWC] },
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
