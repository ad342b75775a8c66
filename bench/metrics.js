#!/usr/bin/env node
'use strict';
/*
 * What the Prometheus metrics cost the request path: GET /api/public/v1/registers throughput
 * (autocannon on loopback, the bench client allowlisted past the rate limit) of three
 * all-in-one processes started alike on the embedded default: one with METRICS_PORT set (its
 * /metrics scraped every BENCH_SCRAPE_MS meanwhile, 5 s: three times as often as Prometheus'
 * usual 15 s), one without, and a control without (the same as the second: what the machine's
 * noise alone makes of two processes). Many short rounds, each loading the three one after
 * the other in a rotating order, so that a drift of the machine falls on all three; the cost
 * is the median of the rounds' costs (with against without), the noise floor the median of the
 * control's. Then with and without are loaded side by side, each with half the connections:
 * their CPU per request. The goal: metrics cost under 3 % of the throughput.
 *
 * The three are started afresh BENCH_GENERATIONS times, and each generation has its rounds: a
 * process can be a few per cent slower than its twin for its whole life (where its heap and
 * code landed), and with one generation that luck alone decided the figure.
 *
 *   node bench/metrics.js     (BENCH_GENERATIONS=3, BENCH_ROUNDS=4 per generation, BENCH_SECONDS=5,
 *                              BENCH_CONNECTIONS=10, BENCH_SCRAPE_MS=5000, BENCH_LOG_LEVEL=info,
 *                              BENCH_NO_BUILD=1)
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

const GENERATIONS = Number(process.env.BENCH_GENERATIONS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const SCRAPE_MS = Number(process.env.BENCH_SCRAPE_MS ?? 5_000);
/** The api logs as users run it (the default level: a line per request), to /dev/null. */
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'info';
const PATH = '/api/public/v1/registers';

/** One all-in-one process as `npm start` runs it, with or without METRICS_PORT. */
async function startApp(dir, name, metrics, generation) {
  const port = await freePort();
  const metricsPort = metrics ? await freePort() : undefined;
  const child = startNode([...START_FLAGS, 'dist/main.js'], {
    ...EMBEDDED,
    ...closedRegisters(),
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: join(dir, `${name}-${generation}`),
    RATE_LIMIT_ALLOWLIST: '127.0.0.1',
    LOG_LEVEL,
    ...(metrics ? { METRICS_PORT: String(metricsPort) } : {}),
  });
  await waitFor(`http://127.0.0.1:${port}/health/live`, 120_000);
  if (metrics) await waitFor(`http://127.0.0.1:${metricsPort}/metrics`, 10_000);
  const title = {
    with: 'GET /registers, METRICS_PORT set',
    without: 'GET /registers, no metrics',
    control: 'GET /registers, no metrics (control)',
  }[name];
  return { child, port, metricsPort, title };
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
      duration: SECONDS,
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

/** The three processes of one generation, started at once and settled. */
async function startGeneration(dir, g) {
  const [withApp, without, control] = await Promise.all([
    startApp(dir, 'with', true, g),
    startApp(dir, 'without', false, g),
    startApp(dir, 'control', false, g),
  ]);
  // Let the boot's work (first probes, the boot's garbage collections) settle.
  await new Promise((r) => setTimeout(r, 10_000));
  const all = [withApp, without, control];
  // Warm all three up (JIT, caches) before anything counts.
  for (const app of all) await cannon('warm-up', { url: `http://127.0.0.1:${app.port}${PATH}`, duration: 3 });
  return { with: withApp, without, control, all };
}

async function main() {
  ensureBuilt();
  const dir = mkdtempSync(join(tmpdir(), 'registry-lookup-bench-metrics-'));
  let apps;
  try {
    const rounds = [];
    const sideBySide = [];
    const half = Math.max(1, Math.round(Number(process.env.BENCH_CONNECTIONS ?? 10) / 2));
    for (let g = 0; g < GENERATIONS; g++) {
      apps = await startGeneration(dir, g);
      const all = apps.all;
      // Six orders of the three, in turn over the generations: each process comes first, second and last as often.
      const orders = [0, 1, 2].flatMap((k) => [
        [all[k], all[(k + 1) % 3], all[(k + 2) % 3]],
        [all[k], all[(k + 2) % 3], all[(k + 1) % 3]],
      ]);
      for (let i = 0; i < ROUNDS; i++) {
        const round = new Map();
        for (const app of orders[(g * ROUNDS + i) % orders.length]) round.set(app, await measured(app));
        rounds.push({
          generation: g,
          with: round.get(apps.with),
          without: round.get(apps.without),
          control: round.get(apps.control),
        });
      }
      const [w, o] = await Promise.all([measured(apps.with, half), measured(apps.without, half)]);
      const withUs = (w.cpuMs * 1000) / w.total;
      const withoutUs = (o.cpuMs * 1000) / o.total;
      sideBySide.push({ withUs, withoutUs, cost: withUs / withoutUs - 1, rpsCost: 1 - w.rps / o.rps });
      for (const app of all) await stop(app.child);
      apps = undefined;
    }

    const a = merged(rounds.map((r) => r.with));
    const b = merged(rounds.map((r) => r.without));
    const c = merged(rounds.map((r) => r.control));
    const roundCosts = rounds.map((r) => 1 - r.with.rps / r.without.rps);
    const roundNoise = rounds.map((r) => 1 - r.control.rps / r.without.rps);
    const generationCosts = Array.from({ length: GENERATIONS }, (_, g) =>
      median(roundCosts.filter((_, i) => rounds[i].generation === g)),
    );
    const report = {
      with: a,
      without: b,
      control: c,
      throughputCost: median(roundCosts),
      noiseFloor: median(roundNoise),
      pooledThroughputCost: 1 - a.rps / b.rps,
      cpuCost: a.cpuUsPerRequest / b.cpuUsPerRequest - 1,
      sideBySideCpuCost: median(sideBySide.map((x) => x.cost)),
      sideBySideThroughputCost: median(sideBySide.map((x) => x.rpsCost)),
      generationCosts,
      scrapes: rounds.reduce((n, r) => n + r.with.scrapes, 0),
    };
    console.log(
      `\nMetrics cost (${process.env.BENCH_CONNECTIONS ?? 10} connections, ${GENERATIONS} generations of processes × ${ROUNDS} rounds of ${SECONDS} s per process; LOG_LEVEL=${LOG_LEVEL}; /metrics scraped every ${SCRAPE_MS / 1000} s: ${report.scrapes} scrapes)`,
    );
    console.log(HEADER);
    for (const side of [a, b, c]) console.log(row(side.title, side));
    for (const side of [a, b, c])
      console.log(`${side.title}: server CPU ${side.cpuUsPerRequest.toFixed(1)} µs per request`);
    console.log(
      `throughput cost of the metrics: ${pct(report.throughputCost)} (median of the rounds: ${roundCosts.map(pct).join(', ')}; of each generation's: ${generationCosts.map(pct).join(', ')}); pooled ${pct(report.pooledThroughputCost)}; CPU per request ${pct(report.cpuCost)}`,
    );
    console.log(
      `noise floor (control against without, the same process twice): ${pct(report.noiseFloor)} (rounds: ${roundNoise.map(pct).join(', ')})`,
    );
    console.log(
      `side by side (with and without loaded at once, one round per generation): server CPU per request with ${median(sideBySide.map((x) => x.withUs)).toFixed(1)} µs, without ${median(sideBySide.map((x) => x.withoutUs)).toFixed(1)} µs; cost ${pct(report.sideBySideCpuCost)} CPU, ${pct(report.sideBySideThroughputCost)} throughput (median; per round: ${sideBySide.map((x) => pct(x.cost)).join(', ')})`,
    );
    console.log(
      `goal: under 3 % of /registers throughput — ${report.throughputCost < 0.03 ? 'met' : 'NOT met'} in this run`,
    );
    return report;
  } finally {
    for (const app of apps?.all ?? []) await stop(app.child);
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
