#!/usr/bin/env node
'use strict';
/*
 * What the Prometheus metrics cost the request path: GET /api/public/v1/registers throughput
 * (autocannon on loopback, the bench client allowlisted past the rate limit) of two all-in-one
 * processes started alike on the embedded default, one with METRICS_PORT set (its /metrics
 * scraped every BENCH_SCRAPE_MS meanwhile, 5 s: three times as often as Prometheus' usual
 * 15 s), one without. Rounds alternate the two (the order swapped each round), with each
 * process's CPU per request read from /proc; then both are loaded side by side, each with half
 * the connections, round after round: both get the same drift of the machine, so that CPU
 * ratio is the steadiest figure. The goal: metrics cost under 3 % of the throughput.
 *
 *   node bench/metrics.js     (BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_ROUNDS=3, BENCH_SCRAPE_MS=5000,
 *                              BENCH_LOG_LEVEL=info, BENCH_NO_BUILD=1)
 */
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const {
  median,
  cpuMs,
  EMBEDDED,
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
const SCRAPE_MS = Number(process.env.BENCH_SCRAPE_MS ?? 5_000);
/** The api logs as users run it (the default level: a line per request), to /dev/null. */
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'info';
const PATH = '/api/public/v1/registers';

/** One all-in-one process as `npm start` runs it, with or without METRICS_PORT. */
async function startApp(dir, metrics) {
  const port = await freePort();
  const metricsPort = metrics ? await freePort() : undefined;
  const child = startNode([...START_FLAGS, 'dist/main.js'], {
    ...EMBEDDED,
    ...closedRegisters(),
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: join(dir, metrics ? 'with' : 'without'),
    RATE_LIMIT_ALLOWLIST: '127.0.0.1',
    LOG_LEVEL,
    ...(metrics ? { METRICS_PORT: String(metricsPort) } : {}),
  });
  await waitFor(`http://127.0.0.1:${port}/health/live`, 120_000);
  if (metrics) await waitFor(`http://127.0.0.1:${metricsPort}/metrics`, 10_000);
  return {
    child,
    port,
    metricsPort,
    title: metrics ? 'GET /registers, METRICS_PORT set' : 'GET /registers, no metrics',
  };
}

/** An autocannon run against one process, with its CPU; the one with metrics is scraped meanwhile. */
async function measured(app, connections) {
  let scrapes = 0;
  const scrape = () => {
    scrapes++;
    fetch(`http://127.0.0.1:${app.metricsPort}/metrics`)
      .then((r) => r.text())
      .catch(() => undefined);
  };
  // As Prometheus does: one scrape at once, then one every SCRAPE_MS.
  if (app.metricsPort) scrape();
  const scraper = app.metricsPort && setInterval(scrape, SCRAPE_MS);
  const before = cpuMs(app.child.pid);
  try {
    const result = await cannon(app.title, {
      url: `http://127.0.0.1:${app.port}${PATH}`,
      ...(connections ? { connections } : {}),
    });
    return { ...result, cpuMs: cpuMs(app.child.pid) - before, scrapes };
  } finally {
    if (scraper) clearInterval(scraper);
  }
}

/** Requests-weighted figures of several runs of one side. */
function merged(runs) {
  const total = runs.reduce((n, r) => n + r.total, 0);
  const seconds = runs.reduce((n, r) => n + r.total / r.rps, 0);
  return {
    title: runs[0].title,
    rps: total / seconds,
    p50: median(runs.map((r) => r.p50)),
    p99: Math.max(...runs.map((r) => r.p99)),
    total,
    cpuUsPerRequest: (runs.reduce((n, r) => n + r.cpuMs, 0) * 1000) / total,
  };
}

const pct = (x) => `${(x * 100).toFixed(1)} %`;

async function main() {
  ensureBuilt();
  const dir = mkdtempSync(join(tmpdir(), 'registry-lookup-bench-metrics-'));
  let withMetrics;
  let without;
  try {
    [withMetrics, without] = await Promise.all([startApp(dir, true), startApp(dir, false)]);
    // Let the boot's work (first probes, the boot's garbage collections) settle on both.
    await new Promise((r) => setTimeout(r, 10_000));
    // Warm both up (JIT, caches) before anything counts.
    await Promise.all(
      [withMetrics, without].map((app) =>
        cannon('warm-up', { url: `http://127.0.0.1:${app.port}${PATH}`, duration: 3 }),
      ),
    );

    const rounds = [];
    for (let i = 0; i < ROUNDS; i++) {
      const order = i % 2 === 0 ? [withMetrics, without] : [without, withMetrics];
      const round = {};
      for (const app of order) round[app === withMetrics ? 'with' : 'without'] = await measured(app);
      rounds.push(round);
    }
    const half = Math.max(1, Math.round(Number(process.env.BENCH_CONNECTIONS ?? 10) / 2));
    const sideBySide = [];
    for (let i = 0; i < ROUNDS; i++) {
      const [w, o] = await Promise.all([measured(withMetrics, half), measured(without, half)]);
      const withUs = (w.cpuMs * 1000) / w.total;
      const withoutUs = (o.cpuMs * 1000) / o.total;
      sideBySide.push({ withUs, withoutUs, cost: withUs / withoutUs - 1, rpsCost: 1 - w.rps / o.rps });
    }

    const a = merged(rounds.map((r) => r.with));
    const b = merged(rounds.map((r) => r.without));
    const report = {
      with: a,
      without: b,
      throughputCost: 1 - a.rps / b.rps,
      roundCosts: rounds.map((r) => 1 - r.with.rps / r.without.rps),
      cpuCost: a.cpuUsPerRequest / b.cpuUsPerRequest - 1,
      sideBySideCpuCost: median(sideBySide.map((x) => x.cost)),
      sideBySideThroughputCost: median(sideBySide.map((x) => x.rpsCost)),
      scrapes: rounds.reduce((n, r) => n + r.with.scrapes, 0),
    };
    console.log(
      `\nMetrics cost (${process.env.BENCH_CONNECTIONS ?? 10} connections, ${ROUNDS} alternating rounds of ${process.env.BENCH_SECONDS ?? 10} s per side; LOG_LEVEL=${LOG_LEVEL}; /metrics scraped every ${SCRAPE_MS / 1000} s: ${report.scrapes} scrapes)`,
    );
    console.log(HEADER);
    console.log(row(a.title, a));
    console.log(row(b.title, b));
    for (const side of [a, b])
      console.log(`${side.title}: server CPU ${side.cpuUsPerRequest.toFixed(1)} µs per request`);
    console.log(
      `throughput cost of the metrics: ${pct(report.throughputCost)} (per round: ${report.roundCosts.map(pct).join(', ')}); CPU per request: ${pct(report.cpuCost)}`,
    );
    console.log(
      `side by side (both loaded at once, ${ROUNDS} rounds): server CPU per request with ${median(sideBySide.map((x) => x.withUs)).toFixed(1)} µs, without ${median(sideBySide.map((x) => x.withoutUs)).toFixed(1)} µs; cost ${pct(report.sideBySideCpuCost)} CPU, ${pct(report.sideBySideThroughputCost)} throughput (median; per round: ${sideBySide.map((x) => pct(x.cost)).join(', ')})`,
    );
    console.log(
      `goal: under 3 % of /registers throughput — ${report.throughputCost < 0.03 ? 'met' : 'NOT met'} in this run`,
    );
    return report;
  } finally {
    await stop(withMetrics?.child);
    await stop(without?.child);
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
