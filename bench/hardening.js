#!/usr/bin/env node
'use strict';
/*
 * The figures of the hardening issue, each against a baseline measured in the same run:
 * - Redis down: GET /registers on an api whose REDIS_URL points at a closed port, next to the
 *   same api without REDIS_URL (in-memory counts): req/s, p50, p99 and the ratio;
 * - a register down: 200 concurrent distinct searches for Great Britain with every register
 *   unreachable (the breaker's path), next to 200 for Australia, which is paused and so answers
 *   from the dataset directly: p50, p99 and the ratio.
 *
 *   node bench/hardening.js            # builds dist/ first (BENCH_NO_BUILD=1 to skip)
 *   BENCH_SECONDS=10 BENCH_CONNECTIONS=10 BENCH_ROUNDS=3 node bench/hardening.js
 */
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const {
  EMBEDDED,
  ensureBuilt,
  freePort,
  waitFor,
  cannon,
  closedRegisters,
  startNode,
  stop,
  row,
  HEADER,
} = require('./lib');

async function startApi(dataDir, env) {
  const port = await freePort();
  const child = startNode(['dist/main.js', ...(env.ROLE ? [`--role=${env.ROLE}`] : [])], {
    ...EMBEDDED,
    ...closedRegisters(),
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    ...env,
  });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/health/live`, 60_000);
  return { child, url };
}

async function redisDown(dir) {
  const limits = { RATE_LIMIT_PER_HOUR: '1000000000', ROLE: 'api' };
  const base = await startApi(join(dir, 'base'), limits);
  let baseline;
  try {
    baseline = await cannon('no REDIS_URL (in-memory counts)', { url: `${base.url}/api/public/v1/registers` });
  } finally {
    await stop(base.child);
  }
  const closed = await freePort();
  const down = await startApi(join(dir, 'down'), { ...limits, REDIS_URL: `redis://127.0.0.1:${closed}` });
  let degraded;
  try {
    degraded = await cannon('REDIS_URL at a closed port', { url: `${down.url}/api/public/v1/registers` });
  } finally {
    await stop(down.child);
  }
  console.log('Redis down: GET /api/public/v1/registers');
  console.log(HEADER);
  console.log(row(baseline.title, baseline));
  console.log(row(degraded.title, degraded));
  console.log(
    `ratio (Redis down / no Redis): req/s ${(degraded.rps / baseline.rps).toFixed(2)}, p99 ${(degraded.p99 / Math.max(1, baseline.p99)).toFixed(2)}`,
  );
}

async function burst(url, country, words, n) {
  const ms = await Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const t0 = performance.now();
      const res = await fetch(
        `${url}/api/public/v1/search?q=${encodeURIComponent(`${words} ${i}`)}&country=${country}`,
      );
      await res.arrayBuffer();
      if (res.status !== 200 && res.status !== 502) throw new Error(`${country} search answered ${res.status}`);
      return performance.now() - t0;
    }),
  );
  ms.sort((a, b) => a - b);
  return { p50: ms[Math.floor(n / 2)], p99: ms[Math.ceil(n * 0.99) - 1] };
}

async function registerDown(dir) {
  const app = await startApi(join(dir, 'offline'), { DATASET_SEED: 'true', RATE_LIMIT_ALLOWLIST: '127.0.0.1' });
  try {
    // The first burst of a fresh process also pays for compiling the search path (V8's JIT
    // and PGlite's WebAssembly): shown apart, then alternating rounds as a running service sees them.
    const first = await burst(app.url, 'NO', 'warm up', 200);
    const rounds = [];
    for (let i = 0; i < ROUNDS; i++) {
      const order = i % 2 === 0 ? ['AU', 'GB'] : ['GB', 'AU'];
      const round = {};
      for (const cc of order) round[cc] = await burst(app.url, cc, `Tesco stores ${i}`, 200);
      rounds.push(round);
    }
    const worst = (cc, k) => Math.max(...rounds.map((r) => r[cc][k]));
    const median = (cc, k) => rounds.map((r) => r[cc][k]).sort((a, b) => a - b)[Math.floor(rounds.length / 2)];
    console.log(
      `A register down: 200 concurrent distinct searches, every register unreachable (${ROUNDS} alternating rounds: median, worst)`,
    );
    console.log(`${'case'.padEnd(44)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'worst p99'.padStart(10)}`);
    console.log(
      `${'first burst of the process (NO, paused)'.padEnd(44)} ${first.p50.toFixed(0).padStart(7)} ${first.p99.toFixed(0).padStart(7)}`,
    );
    console.log(
      `${'AU paused: dataset directly (baseline)'.padEnd(44)} ${median('AU', 'p50').toFixed(0).padStart(7)} ${median('AU', 'p99').toFixed(0).padStart(7)} ${worst('AU', 'p99').toFixed(0).padStart(10)}`,
    );
    console.log(
      `${'GB unreachable: the breaker, then dataset'.padEnd(44)} ${median('GB', 'p50').toFixed(0).padStart(7)} ${median('GB', 'p99').toFixed(0).padStart(7)} ${worst('GB', 'p99').toFixed(0).padStart(10)}`,
    );
    console.log(
      `ratio (GB unreachable / AU paused): median p99 ${(median('GB', 'p99') / median('AU', 'p99')).toFixed(2)}`,
    );
  } finally {
    await stop(app.child);
  }
}

async function main() {
  ensureBuilt();
  const dir = mkdtempSync(join(tmpdir(), 'rl-bench-hardening-'));
  try {
    await redisDown(dir);
    console.log('');
    await registerDown(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

module.exports = { main };
if (require.main === module) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
