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
 *   node bench/foundation.js     (BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_NO_BUILD=1)
 */
const { spawn } = require('node:child_process');
const { mkdtempSync, readFileSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { EMBEDDED, ROOT, ensureBuilt, freePort, waitFor, cannon, closedRegisters, startNode, stop, row, HEADER } = require('./lib');

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

async function main() {
  ensureBuilt();
  const dir = mkdtempSync(join(tmpdir(), 'registry-lookup-bench-'));
  const report = {};
  let app;
  let bare;
  try {
    const dataDir = join(dir, 'data');
    report.coldStartMs = await startupMs(dataDir);
    report.warmStartMs = await startupMs(dataDir);

    const port = await freePort();
    app = startNode(['dist/main.js'], { ...EMBEDDED, ...closedRegisters(), PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, RATE_LIMIT_ALLOWLIST: '127.0.0.1' });
    await waitFor(`http://127.0.0.1:${port}/health/live`, 60_000);
    await new Promise((r) => setTimeout(r, 5_000)); // let boot work (first probes) settle
    report.idleRssMb = rssMb(app.pid);

    const barePort = await freePort();
    bare = startNode(['bench/bare-app.js'], { PORT: String(barePort) });
    await waitFor(`http://127.0.0.1:${barePort}/constant`, 30_000);

    const registers = await cannon('GET /api/public/v1/registers', { url: `http://127.0.0.1:${port}/api/public/v1/registers` });
    const constant = await cannon('bare NestJS constant JSON', { url: `http://127.0.0.1:${barePort}/constant` });
    report.registers = registers;
    report.bare = constant;
    report.ratio = registers.rps / constant.rps;

    console.log(`\nFoundation (${process.env.BENCH_CONNECTIONS ?? 10} connections, ${process.env.BENCH_SECONDS ?? 10} s per run)`);
    console.log(HEADER);
    console.log(row(registers.title, registers));
    console.log(row(constant.title, constant));
    console.log(`/registers ÷ bare handler throughput: ${report.ratio.toFixed(2)}`);
    console.log(`cold start of npm start to first 200 (empty DATA_DIR): ${report.coldStartMs.toFixed(0)} ms`);
    console.log(`warm start (existing DATA_DIR): ${report.warmStartMs.toFixed(0)} ms`);
    console.log(`idle api process RSS: ${report.idleRssMb.toFixed(0)} MB`);
    return report;
  } finally {
    await stop(app);
    await stop(bare);
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
