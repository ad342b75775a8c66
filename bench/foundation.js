#!/usr/bin/env node
'use strict';
/*
 * Foundation figures:
 * - GET /api/public/v1/registers throughput and p50/p99 latency (autocannon on loopback, the
 *   bench client allowlisted past the rate limit), next to a bare NestJS handler returning a
 *   constant JSON in an otherwise empty app, and the ratio of the two;
 * - cold start of `npm start` (fresh DATA_DIR: PGlite created, migrations applied) and warm
 *   start (existing DATA_DIR) to the first 200 of /api/public/v1/registers;
 * - RSS of the idle api process.
 *
 *   node bench/foundation.js     (BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_ROUNDS=3, BENCH_LOG_LEVEL=info, BENCH_NO_BUILD=1,
 *                                 BENCH_ONLY=registers: no cold and warm start, the throughput and idle RSS only)
 */
const { spawn } = require('node:child_process');
const { mkdtempSync, readFileSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { EMBEDDED, ROOT, START_FLAGS, ensureBuilt, freePort, waitFor, cannon, closedRegisters, startNode, stop, row, HEADER } = require('./lib');

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** The api logs as users run it (the default level: a line per request), to /dev/null. */
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'info';
/** The two starts take half a minute and are not needed when tuning the request path. */
const REGISTERS_ONLY = process.env.BENCH_ONLY === 'registers';

/** Requests-weighted figures of several runs of one side: total requests over total time, worst p99. */
function merged(runs) {
  const total = runs.reduce((n, r) => n + r.total, 0);
  const seconds = runs.reduce((n, r) => n + r.total / r.rps, 0);
  const p50s = runs.map((r) => r.p50).sort((a, b) => a - b);
  return { title: runs[0].title, rps: total / seconds, p50: p50s[Math.floor(p50s.length / 2)], p99: Math.max(...runs.map((r) => r.p99)), total };
}

/** Time from `npm start` to the first 200 of /registers. */
async function startupMs(dataDir) {
  const port = await freePort();
  const t0 = process.hrtime.bigint();
  const child = spawn('npm', ['start', '--silent'], {
    cwd: ROOT,
    env: { ...process.env, ...EMBEDDED, ...closedRegisters(), PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  });
  await waitFor(`http://127.0.0.1:${port}/api/public/v1/registers`, 120_000);
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  process.kill(-child.pid, 'SIGTERM');
  await new Promise((r) => child.once('exit', r));
  return ms;
}

function rssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024;
}

/** Cold and warm start of `npm start` on the embedded default, and the idle RSS of the api it runs. */
async function embeddedStart() {
  const dir = mkdtempSync(join(tmpdir(), 'registry-lookup-bench-'));
  let app;
  try {
    const dataDir = join(dir, 'data');
    const coldStartMs = REGISTERS_ONLY ? NaN : await startupMs(dataDir);
    const warmStartMs = REGISTERS_ONLY ? NaN : await startupMs(dataDir);
    const port = await freePort();
    // As `npm start` runs it (its node flags): the RSS and throughput users get.
    app = startNode([...START_FLAGS, 'dist/main.js'], { ...EMBEDDED, ...closedRegisters(), PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, RATE_LIMIT_ALLOWLIST: '127.0.0.1', LOG_LEVEL });
    await waitFor(`http://127.0.0.1:${port}/health/live`, 60_000);
    await new Promise((r) => setTimeout(r, 5_000)); // let boot work (first probes) settle
    return { coldStartMs, warmStartMs, idleRssMb: rssMb(app.pid), app, port, dir };
  } catch (err) {
    await stop(app);
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

async function main() {
  ensureBuilt();
  const report = {};
  let app;
  let bare;
  let dir;
  try {
    let port;
    ({ coldStartMs: report.coldStartMs, warmStartMs: report.warmStartMs, idleRssMb: report.idleRssMb, app, port, dir } = await embeddedStart());

    const barePort = await freePort();
    bare = startNode(['bench/bare-app.js'], { PORT: String(barePort) });
    await waitFor(`http://127.0.0.1:${barePort}/constant`, 30_000);

    // Alternating rounds (the order swapped each round) rather than one long run each: on a
    // shared machine the load of other work drifts, and it should weigh on both sides alike.
    const rounds = [];
    for (let i = 0; i < ROUNDS; i++) {
      const pair = {};
      const order = i % 2 === 0 ? ['registers', 'bare'] : ['bare', 'registers'];
      for (const side of order) {
        pair[side] =
          side === 'registers'
            ? await cannon('GET /api/public/v1/registers', { url: `http://127.0.0.1:${port}/api/public/v1/registers` })
            : await cannon('bare NestJS constant JSON', { url: `http://127.0.0.1:${barePort}/constant` });
      }
      rounds.push(pair);
    }
    const registers = merged(rounds.map((r) => r.registers));
    const constant = merged(rounds.map((r) => r.bare));
    report.registers = registers;
    report.bare = constant;
    report.ratio = registers.rps / constant.rps;
    report.roundRatios = rounds.map((r) => r.registers.rps / r.bare.rps);

    console.log(`\nFoundation (${process.env.BENCH_CONNECTIONS ?? 10} connections, ${ROUNDS} alternating rounds of ${process.env.BENCH_SECONDS ?? 10} s per side; api at LOG_LEVEL=${LOG_LEVEL})`);
    console.log(HEADER);
    console.log(row(registers.title, registers));
    console.log(row(constant.title, constant));
    console.log(`/registers ÷ bare handler throughput: ${report.ratio.toFixed(2)} (per round: ${report.roundRatios.map((x) => x.toFixed(2)).join(', ')})`);
    if (!REGISTERS_ONLY) {
      console.log(`cold start of npm start to first 200 (empty DATA_DIR): ${report.coldStartMs.toFixed(0)} ms`);
      console.log(`warm start (existing DATA_DIR): ${report.warmStartMs.toFixed(0)} ms`);
    }
    console.log(`idle api process RSS: ${report.idleRssMb.toFixed(0)} MB`);
    return report;
  } finally {
    await stop(app);
    await stop(bare);
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

module.exports = { main, embeddedStart: async () => {
  const r = await embeddedStart();
  await stop(r.app);
  rmSync(r.dir, { recursive: true, force: true });
  return { coldStartMs: r.coldStartMs, warmStartMs: r.warmStartMs, idleRssMb: r.idleRssMb };
} };

if (require.main === module) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
