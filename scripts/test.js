#!/usr/bin/env node
// The README's test command (`npm test`) after the build: unit specs, the end-to-end suite on
// the embedded default, then — when DATABASE_URL and REDIS_URL are set — the same end-to-end
// suite and the multi-process/scale specs on real Postgres and Redis.
//
// With the real services, the phases run in two lanes side by side, one per core, of about the
// same length: the unit specs, the end-to-end suite embedded and two multi-process specs in one;
// the other multi-process specs, the million-row imports (about ten minutes on a slow host) and
// the end-to-end suite on Postgres + Bull in the other. They share nothing a test could trip
// over: every test database is created for the test (test/support/database.ts), every Redis
// key prefix is random, every port is picked free, and the embedded suite uses no service at
// all. Each lane's phases still run one test file at a time (--runInBand), and each line of
// output says its phase.
// TEST_SERIAL=1 (or a one-core machine) runs the four phases one after another as before.
const { spawn } = require('node:child_process');
const { availableParallelism } = require('node:os');
const { join } = require('node:path');
const { createInterface } = require('node:readline');

const jest = join(__dirname, '..', 'node_modules', 'jest', 'bin', 'jest.js');
const extra = process.argv.slice(2);

const UNIT = { label: 'unit', tag: 'unit', project: 'unit', env: {} };
const E2E_EMBEDDED = {
  label: 'end-to-end, embedded (PGlite + in-process jobs)',
  tag: 'e2e-embedded',
  project: 'e2e',
  env: { TEST_MODE: 'embedded' },
};
const E2E_SERVICES = {
  label: 'end-to-end, real services (Postgres + Bull on Redis)',
  tag: 'e2e-services',
  project: 'e2e',
  env: { TEST_MODE: 'services' },
};
const SERVICES = {
  label: 'real services: several processes, imports at scale',
  tag: 'services',
  project: 'services',
  env: { TEST_MODE: 'services' },
};
/** Two multi-process specs of SERVICES (about 100 s), run apart when the lanes run side by side. */
const MOVED = 'test/services/(detection-multi-worker|webhook-delivery-processes)\\.spec\\.ts$';
const SERVICES_REST = { ...SERVICES, args: ['--testPathIgnorePatterns', MOVED] };
const SERVICES_MOVED = {
  ...SERVICES,
  label: 'real services: delivery and detection across worker processes',
  tag: 'services-workers',
  args: ['--testPathPattern', MOVED],
};

/** Runs one phase; resolves with its exit status. Lines are prefixed with its tag when lanes share the output. */
function runPhase(phase, prefixed) {
  console.log(`\n=== ${phase.label} ===`);
  const started = Date.now();
  const child = spawn(
    process.execPath,
    [
      '--experimental-vm-modules',
      '--no-warnings=ExperimentalWarning',
      jest,
      '--selectProjects',
      phase.project,
      '--runInBand',
      ...(phase.args ?? []),
      ...extra,
    ],
    {
      stdio: prefixed ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      env: { ...process.env, ...phase.env },
    },
  );
  if (prefixed) {
    for (const [stream, out] of [
      [child.stdout, process.stdout],
      [child.stderr, process.stderr],
    ]) {
      createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) =>
        out.write(`[${phase.tag}] ${line}\n`),
      );
    }
  }
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      const status = code ?? (signal ? 1 : 0);
      console.log(
        `\n=== ${phase.label}: ${status === 0 ? 'passed' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(0)} s ===`,
      );
      resolve(status);
    });
  });
}

/** Runs phases in order, stopping at the first that fails; resolves with the failed phases. */
async function runLane(phases, prefixed) {
  for (const phase of phases) {
    if ((await runPhase(phase, prefixed)) !== 0) return [phase];
  }
  return [];
}

async function main() {
  const services = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);
  let failed;
  if (!services) {
    failed = await runLane([UNIT, E2E_EMBEDDED], false);
  } else if (process.env.TEST_SERIAL === '1' || availableParallelism() < 2) {
    failed = await runLane([UNIT, E2E_EMBEDDED, E2E_SERVICES, SERVICES], false);
  } else {
    const lanes = await Promise.all([
      runLane([UNIT, E2E_EMBEDDED, SERVICES_MOVED], true),
      runLane([SERVICES_REST, E2E_SERVICES], true),
    ]);
    failed = lanes.flat();
  }
  if (!services) {
    console.log(
      '\nReal-services suites SKIPPED: DATABASE_URL and REDIS_URL are not set. To run them: ' +
        'DATABASE_URL=postgres://postgres@127.0.0.1:5432/test REDIS_URL=redis://127.0.0.1:6379 npm test',
    );
  }
  if (failed.length > 0) {
    console.error(`\nFailed: ${failed.map((p) => p.label).join('; ')}.`);
    process.exit(1);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
