#!/usr/bin/env node
// The README's test command (`npm test`) after the build: unit specs, the end-to-end suite on
// the embedded default, then — when DATABASE_URL and REDIS_URL are set — the same end-to-end
// suite and the multi-process/scale specs on real Postgres and Redis.
const { spawnSync } = require('node:child_process');
const { join } = require('node:path');

const jest = join(__dirname, '..', 'node_modules', 'jest', 'bin', 'jest.js');
const extra = process.argv.slice(2);

function run(label, project, env) {
  console.log(`\n=== ${label} ===`);
  const r = spawnSync(process.execPath, ['--experimental-vm-modules', '--no-warnings=ExperimentalWarning', jest, '--selectProjects', project, '--runInBand', ...extra], {
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  if (r.status !== 0) {
    console.error(`\n${label} failed.`);
    process.exit(r.status ?? 1);
  }
}

run('unit', 'unit', {});
run('end-to-end, embedded (PGlite + in-process jobs)', 'e2e', { TEST_MODE: 'embedded' });
if (process.env.DATABASE_URL && process.env.REDIS_URL) {
  run('end-to-end, real services (Postgres + Bull on Redis)', 'e2e', { TEST_MODE: 'services' });
  run('real services: several processes, imports at scale', 'services', { TEST_MODE: 'services' });
} else {
  console.log(
    '\nReal-services suites SKIPPED: DATABASE_URL and REDIS_URL are not set. To run them: ' +
      'DATABASE_URL=postgres://postgres@127.0.0.1:5432/test REDIS_URL=redis://127.0.0.1:6379 npm test',
  );
}
