#!/usr/bin/env node
'use strict';
/*
 * Foundation figures:
 * - GET /api/public/v1/registers throughput and p50/p99 latency (autocannon on loopback, the
 *   bench client allowlisted past the rate limit), next to two handlers of an otherwise empty
 *   NestJS app (bench/bare-app.js): one returning a tiny constant JSON (30 bytes), one returning
 *   the very document /registers answered (about 4 KB) as a constant object. The first ratio is
 *   the one issue 12 was measured with; the second holds the response alike, so that what it
 *   measures is the fixed cost per request of our stack rather than the cost of sending 4 KB
 *   instead of 30 bytes over loopback;
 * - cold start of `npm start` (fresh DATA_DIR: PGlite created, migrations applied) and warm
 *   start (existing DATA_DIR) to the first 200 of /api/public/v1/registers;
 * - RSS of the idle api process: 5 s after it listens, and settled, 12 s after.
 * - the same CPU ratio with /registers and the 30-byte bare handler loaded at the same time,
 *   round after round: the machine's load drifts (a shared machine's CPU per request moves by a
 *   third from minute to minute), and loaded side by side both sides get the same drift, so
 *   this ratio is the steadiest of all.
 *
 *   node bench/foundation.js     (BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_ROUNDS=3, BENCH_LOG_LEVEL=info, BENCH_NO_BUILD=1,
 *                                 BENCH_ONLY=registers: no cold and warm start, the throughput and idle RSS only)
 */
const { spawn } = require('node:child_process');
const { mkdtempSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const {
  median,
  cpuMs,
  EMBEDDED,
  ROOT,
  START_FLAGS,
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

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** The api logs as users run it (the default level: a line per request), to /dev/null. */
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'info';
/** The two starts take half a minute and are not needed when tuning the request path. */
const REGISTERS_ONLY = process.env.BENCH_ONLY === 'registers';

/** Requests-weighted figures of several runs of one side: total requests over total time, worst p99, server CPU per request. */
function merged(runs) {
  const total = runs.reduce((n, r) => n + r.total, 0);
  const seconds = runs.reduce((n, r) => n + r.total / r.rps, 0);
  const p50s = runs.map((r) => r.p50).sort((a, b) => a - b);
  const cpuUsPerRequest = (runs.reduce((n, r) => n + r.cpuMs, 0) * 1000) / total;
  return {
    title: runs[0].title,
    rps: total / seconds,
    p50: p50s[Math.floor(p50s.length / 2)],
    p99: Math.max(...runs.map((r) => r.p99)),
    total,
    cpuUsPerRequest,
  };
}

/**
 * One autocannon run, with the CPU the serving process spent on it: less sensitive than the
 * request rate to what else the machine runs (autocannon itself shares the two cores).
 */
async function measured(pid, title, url, connections) {
  const before = cpuMs(pid);
  const result = await cannon(title, { url, ...(connections ? { connections } : {}) });
  return { ...result, cpuMs: cpuMs(pid) - before };
}

/** When the idle RSS is read after the api listens: booted (first probes done), and settled. */
const BOOTED_AFTER_MS = 5_000;
/** Settled: 12 s after listening, the boot's work long done. */
function settledAfterMs() {
  return 12_000;
}

/** Time from `npm start` to the first 200 of /registers. */
async function startupMs(dataDir) {
  const port = await freePort();
  const t0 = process.hrtime.bigint();
  const child = spawn('npm', ['start', '--silent'], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...EMBEDDED,
      ...closedRegisters(),
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
    },
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
    app = startNode([...START_FLAGS, 'dist/main.js'], {
      ...EMBEDDED,
      ...closedRegisters(),
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      RATE_LIMIT_ALLOWLIST: '127.0.0.1',
      LOG_LEVEL,
    });
    await waitFor(`http://127.0.0.1:${port}/health/live`, 60_000);
    await new Promise((r) => setTimeout(r, BOOTED_AFTER_MS)); // let boot work (first probes) settle
    const bootedRssMb = rssMb(app.pid);
    await new Promise((r) => setTimeout(r, settledAfterMs() - BOOTED_AFTER_MS));
    return { coldStartMs, warmStartMs, bootedRssMb, idleRssMb: rssMb(app.pid), app, port, dir };
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
    ({
      coldStartMs: report.coldStartMs,
      warmStartMs: report.warmStartMs,
      bootedRssMb: report.bootedRssMb,
      idleRssMb: report.idleRssMb,
      app,
      port,
      dir,
    } = await embeddedStart());

    // The document the bare app's /same-body returns: what /registers answers now.
    const sameBody = join(dir, 'registers.json');
    writeFileSync(sameBody, await (await fetch(`http://127.0.0.1:${port}/api/public/v1/registers`)).text());
    const barePort = await freePort();
    bare = startNode(['bench/bare-app.js'], { PORT: String(barePort), BARE_SAME_BODY: sameBody });
    await waitFor(`http://127.0.0.1:${barePort}/constant`, 30_000);

    // Alternating rounds (the order swapped each round) rather than one long run each: on a
    // shared machine the load of other work drifts, and it should weigh on both sides alike.
    const rounds = [];
    for (let i = 0; i < ROUNDS; i++) {
      const pair = {};
      const sides = ['registers', 'bare', 'same'];
      const order = i % 2 === 0 ? sides : [...sides].reverse();
      for (const side of order) {
        pair[side] =
          side === 'registers'
            ? await measured(
                app.pid,
                'GET /api/public/v1/registers',
                `http://127.0.0.1:${port}/api/public/v1/registers`,
              )
            : side === 'bare'
              ? await measured(bare.pid, 'bare NestJS constant JSON (30 B)', `http://127.0.0.1:${barePort}/constant`)
              : await measured(bare.pid, 'bare NestJS, same document (4 KB)', `http://127.0.0.1:${barePort}/same-body`);
      }
      rounds.push(pair);
    }
    // Side by side: both loaded at once, each with its own autocannon (half the connections).
    const sideBySide = [];
    const half = Math.max(1, Math.round(Number(process.env.BENCH_CONNECTIONS ?? 10) / 2));
    for (let i = 0; i < ROUNDS; i++) {
      const [r, b] = await Promise.all([
        measured(app.pid, 'GET /api/public/v1/registers', `http://127.0.0.1:${port}/api/public/v1/registers`, half),
        measured(bare.pid, 'bare NestJS constant JSON (30 B)', `http://127.0.0.1:${barePort}/constant`, half),
      ]);
      const registersUs = (r.cpuMs * 1000) / r.total;
      const bareUs = (b.cpuMs * 1000) / b.total;
      sideBySide.push({ registersUs, bareUs, ratio: bareUs / registersUs });
    }
    const registers = merged(rounds.map((r) => r.registers));
    const constant = merged(rounds.map((r) => r.bare));
    const same = merged(rounds.map((r) => r.same));
    report.registers = registers;
    report.bare = constant;
    report.sameBody = same;
    report.ratio = registers.rps / constant.rps;
    report.roundRatios = rounds.map((r) => r.registers.rps / r.bare.rps);
    report.sameBodyRatio = registers.rps / same.rps;
    report.sameBodyRoundRatios = rounds.map((r) => r.registers.rps / r.same.rps);

    console.log(
      `\nFoundation (${process.env.BENCH_CONNECTIONS ?? 10} connections, ${ROUNDS} alternating rounds of ${process.env.BENCH_SECONDS ?? 10} s per side; api at LOG_LEVEL=${LOG_LEVEL})`,
    );
    console.log(HEADER);
    console.log(row(registers.title, registers));
    console.log(row(constant.title, constant));
    console.log(row(same.title, same));
    for (const side of [registers, constant, same])
      console.log(`${side.title}: server CPU ${side.cpuUsPerRequest.toFixed(0)} µs per request`);
    report.cpuRatio = constant.cpuUsPerRequest / registers.cpuUsPerRequest;
    report.sameBodyCpuRatio = same.cpuUsPerRequest / registers.cpuUsPerRequest;
    console.log(
      `bare handler's CPU per request ÷ /registers': ${report.cpuRatio.toFixed(2)} (30 B), ${report.sameBodyCpuRatio.toFixed(2)} (same document)`,
    );
    console.log(
      `/registers ÷ bare handler (30 B) throughput: ${report.ratio.toFixed(2)} (per round: ${report.roundRatios.map((x) => x.toFixed(2)).join(', ')})`,
    );
    console.log(
      `/registers ÷ bare handler (same document) throughput: ${report.sameBodyRatio.toFixed(2)} (per round: ${report.sameBodyRoundRatios.map((x) => x.toFixed(2)).join(', ')})`,
    );
    report.sideBySideCpuRatio = median(sideBySide.map((x) => x.ratio));
    console.log(
      `side by side (both loaded at once, ${ROUNDS} rounds): server CPU per request /registers ${median(sideBySide.map((x) => x.registersUs)).toFixed(0)} µs, bare (30 B) ${median(sideBySide.map((x) => x.bareUs)).toFixed(0)} µs; bare ÷ /registers ${report.sideBySideCpuRatio.toFixed(2)} (median; per round: ${sideBySide.map((x) => x.ratio.toFixed(2)).join(', ')})`,
    );
    if (!REGISTERS_ONLY) {
      console.log(`cold start of npm start to first 200 (empty DATA_DIR): ${report.coldStartMs.toFixed(0)} ms`);
      console.log(`warm start (existing DATA_DIR): ${report.warmStartMs.toFixed(0)} ms`);
    }
    console.log(
      `idle api process RSS: ${report.idleRssMb.toFixed(0)} MB settled (${settledAfterMs() / 1000} s after listening; ${report.bootedRssMb.toFixed(0)} MB ${BOOTED_AFTER_MS / 1000} s after)`,
    );
    return report;
  } finally {
    await stop(app);
    await stop(bare);
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

module.exports = {
  main,
  embeddedStart: async () => {
    const r = await embeddedStart();
    await stop(r.app);
    rmSync(r.dir, { recursive: true, force: true });
    return { coldStartMs: r.coldStartMs, warmStartMs: r.warmStartMs, idleRssMb: r.idleRssMb };
  },
};

if (require.main === module) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
