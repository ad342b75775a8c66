'use strict';
// Shared by the benchmark scripts: ports, waiting, autocannon runs, the compiled app.
const { spawn, spawnSync } = require('node:child_process');
const { existsSync, readdirSync, readFileSync } = require('node:fs');
const { createServer } = require('node:net');
const { join } = require('node:path');
const autocannon = require('autocannon');

const ROOT = join(__dirname, '..');
/** The key of the secrets at rest of every process a benchmark starts (on Postgres it is required). */
const BENCH_SECRETS_KEY = Buffer.alloc(32, 9).toString('base64');

function run(cmd, args, env = {}) {
  const r = spawnSync(cmd, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited with ${r.status}`);
}

/** Compiles dist/ unless BENCH_NO_BUILD=1 and it is there. */
function ensureBuilt() {
  if (process.env.BENCH_NO_BUILD === '1' && existsSync(join(ROOT, 'dist/main.js'))) return;
  console.log('building dist/ …');
  run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json']);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

async function waitFor(url, ms) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`${url} did not answer within ${ms} ms`);
}

/** autocannon run; fails on any non-2xx answer, error or timeout (a fast error is no result). */
function cannon(title, opts) {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        connections: Number(process.env.BENCH_CONNECTIONS ?? 10),
        duration: Number(process.env.BENCH_SECONDS ?? 10),
        ...opts,
      },
      (err, result) => {
        if (err) return reject(err);
        const bad = result.non2xx + result.errors + result.timeouts;
        if (bad > 0)
          return reject(
            new Error(`${title}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`),
          );
        resolve({
          title,
          rps: result.requests.average,
          p50: result.latency.p50,
          p99: result.latency.p99,
          total: result.requests.total,
        });
      },
    );
  });
}

/** Every register endpoint at a closed loopback port: nothing leaves the machine. */
function closedRegisters() {
  const { REGISTER_TABLE } = require(join(ROOT, 'dist/registers/registers.js'));
  const env = {};
  for (const def of REGISTER_TABLE)
    for (const [purpose, endpoint] of Object.entries(def.endpoints))
      if (!endpoint.linksOnly)
        env[`REGISTER_${def.country}_${purpose}_URL`] =
          `http://127.0.0.1:9/${def.country.toLowerCase()}/${purpose.toLowerCase()}`;
  return env;
}

/** Env of a process on the embedded default, whatever the bench's own environment holds. */
const EMBEDDED = { DATABASE_URL: '', REDIS_URL: '' };

/**
 * The node flags `npm start` runs dist/main.js with (package.json), so that a bench of the
 * all-in-one process measures what users run.
 */
const START_FLAGS = (() => {
  const start = require(join(ROOT, 'package.json')).scripts.start;
  const m = /^node\s+(.*?)\s*dist\/main\.js/.exec(start);
  return m && m[1] ? m[1].split(/\s+/) : [];
})();

/** Starts the compiled app (or any script) and returns the child process. */
function startNode(args, env) {
  return spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', WEBHOOK_SECRETS_KEY: BENCH_SECRETS_KEY, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

async function stop(child) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

function row(label, x) {
  return `${label.padEnd(44)} ${x.rps.toFixed(0).padStart(8)} ${String(x.p50).padStart(7)} ${String(x.p99).padStart(7)}`;
}

const HEADER = `${'endpoint'.padEnd(44)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)}`;

/**
 * CPU time (user + system) a process has used so far, in ms: Linux /proc, utime and stime in
 * clock ticks of 10 ms. Counted from the last ')' (the command name may hold one).
 */
function cpuMs(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/**
 * CPU time every process of the machine has used so far (user, system, interrupts; not idle
 * nor waiting for I/O), in ms: Linux /proc/stat, in clock ticks of 10 ms summed over the cores.
 */
function machineCpuMs() {
  const [, ...ticks] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
  const [user, nice, system, , , irq, softirq] = ticks;
  return ((user + nice + system + irq + softirq) * 1000) / 100;
}

/** CPU time used so far by every process of this command name (`postgres`, `redis-server`), in ms. */
function commandCpuMs(command) {
  let sum = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === command) sum += cpuMs(pid);
    } catch {
      // gone meanwhile
    }
  }
  return sum;
}

/** The p-th percentile of values sorted ascending (NaN when there are none). */
function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** The data of a company.name_changed event about bench company i (a Norwegian number of its own). */
function nameChange(i) {
  const n = 900000000 + i;
  const now = new Date().toISOString();
  return {
    entity_id: `ent_no_${n}`,
    country: 'NO',
    company_name: `BENCH COMPANY ${i} AS`,
    registration_number: String(n),
    register: { name: 'Enhetsregisteret', official_url: 'https://www.brreg.no' },
    change: { field: 'name', previous: `OLD BENCH ${i} AS`, current: `BENCH COMPANY ${i} AS`, observed_at: now },
    provenance: {
      source_mode: 'live',
      source_url: `https://virksomhet.brreg.no/nb/oppslag/enheter/${n}`,
      retrieved_at: now,
    },
  };
}

/** The middle value (the upper one of an even count). */
function median(values) {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
}

/** Deletes every key of a bench's Redis prefix (best effort: a bench never fails on it). */
async function dropRedisPrefix(prefix) {
  if (!prefix || !process.env.REDIS_URL) return;
  const Redis = require('ioredis');
  const redis = new Redis(process.env.REDIS_URL, { connectTimeout: 2_000, maxRetriesPerRequest: 1 });
  try {
    for await (const keys of redis.scanStream({ match: `${prefix}:*`, count: 1_000 }))
      if (keys.length > 0) await redis.unlink(...keys);
  } catch {
    /* the Redis is gone or stalled */
  } finally {
    redis.disconnect();
  }
}

/**
 * What a bench on Postgres + Bull leaves behind, removed: its queues' keys, its connection and
 * its database (forced: a killed process may still hold a session).
 */
async function dropBenchState({ queues, dataSource, database, redisPrefix }) {
  for (const q of queues)
    await q
      .obliterate({ force: true })
      .catch(() => undefined)
      .then(() => q.close());
  // The queues the bench did not open (the worker's feed polls, detection checks) too.
  await dropRedisPrefix(redisPrefix);
  await dataSource?.destroy();
  const { Client } = require('pg');
  const c = new Client({ connectionString: process.env.DATABASE_URL });
  await c.connect();
  await c.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  await c.end();
}

module.exports = {
  dropBenchState,
  dropRedisPrefix,
  BENCH_SECRETS_KEY,
  median,
  percentile,
  nameChange,
  cpuMs,
  machineCpuMs,
  commandCpuMs,
  EMBEDDED,
  ROOT,
  START_FLAGS,
  run,
  ensureBuilt,
  freePort,
  waitFor,
  cannon,
  closedRegisters,
  startNode,
  stop,
  row,
  HEADER,
};
