#!/usr/bin/env node
'use strict';
/*
 * Issue 12, "a lookup by number within 1 ms of its SQL": GET
 * /api/public/v1/companies/GB/{number} answered by the fallback dataset (GB paused), one
 * request at a time on a keep-alive connection, next to the SQL the service runs for it
 * (findByNumberSql of dist/dataset/dataset.service.js) timed directly through the same driver
 * on the same data, in alternating rounds of the same run. Prints both p50s and the difference.
 *
 * - embedded default (always): the api on PGlite; the SQL through PGlite in this process, on a
 *   data directory made from the same template as the api's (the api holds its own directory's
 *   lock, and one PGlite per directory is all PGlite allows);
 * - Postgres (with DATABASE_URL, a server the bench may create a database on): the api with
 *   --role=api on a fresh migrated and seeded database; the SQL through node-postgres.
 *
 *   node bench/lookup.js     (BENCH_LOOKUPS=600 per round, BENCH_ROUNDS=3, BENCH_NO_BUILD=1)
 */
const http = require('node:http');
const { spawnSync } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { EMBEDDED, ROOT, ensureBuilt, freePort, waitFor, closedRegisters, startNode, stop } = require('./lib');

const LOOKUPS = Number(process.env.BENCH_LOOKUPS ?? 600);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** The GB numbers of the bundled sample: what the seeded fallback dataset holds. */
function gbNumbers() {
  return require(join(ROOT, 'src/dataset/seed/bundled-sample.json'))
    .filter((c) => c.country === 'GB')
    .map((c) => c.registrationNumber);
}

/** One GET on a keep-alive agent (less client overhead than fetch); resolves to ms. */
function timedGet(agent, port, path) {
  return new Promise((resolve, reject) => {
    const t = process.hrtime.bigint();
    const req = http.get({ host: '127.0.0.1', port, path, agent }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const ms = Number(process.hrtime.bigint() - t) / 1e6;
        if (res.statusCode !== 200)
          return reject(new Error(`${path}: HTTP ${res.statusCode} ${Buffer.concat(chunks).toString().slice(0, 200)}`));
        const body = JSON.parse(Buffer.concat(chunks).toString());
        if (body.register?.status !== 'paused')
          return reject(
            new Error(`${path}: not answered by the fallback dataset (register status ${body.register?.status})`),
          );
        resolve(ms);
      });
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

/** Alternating rounds: LOOKUPS lookups of GB `numbers` through HTTP, then the same numbers through `sql`. */
async function compare(label, port, sql, numbers = gbNumbers()) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const httpMs = [];
  const sqlMs = [];
  // Warm-up: JIT, the api's caches, the database's buffers.
  for (let i = 0; i < 200; i++) {
    await timedGet(agent, port, `/api/public/v1/companies/GB/${numbers[i % numbers.length]}`);
    await sql(numbers[i % numbers.length]);
  }
  const roundP50 = [];
  for (let round = 0; round < ROUNDS; round++) {
    const h = [];
    const s = [];
    for (let i = 0; i < LOOKUPS; i++)
      h.push(await timedGet(agent, port, `/api/public/v1/companies/GB/${numbers[i % numbers.length]}`));
    for (let i = 0; i < LOOKUPS; i++) {
      const t = process.hrtime.bigint();
      const rows = await sql(numbers[i % numbers.length]);
      s.push(Number(process.hrtime.bigint() - t) / 1e6);
      if (rows.length !== 1) throw new Error(`SQL found ${rows.length} rows for GB ${numbers[i % numbers.length]}`);
    }
    httpMs.push(...h);
    sqlMs.push(...s);
    roundP50.push(percentile(h, 50) - percentile(s, 50));
  }
  agent.destroy();
  const out = {
    label,
    httpP50: percentile(httpMs, 50),
    httpP99: percentile(httpMs, 99),
    sqlP50: percentile(sqlMs, 50),
    sqlP99: percentile(sqlMs, 99),
    roundDiffs: roundP50,
  };
  out.diffP50 = out.httpP50 - out.sqlP50;
  console.log(
    `${label.padEnd(9)} HTTP p50 ${out.httpP50.toFixed(2)} ms (p99 ${out.httpP99.toFixed(2)}), its SQL p50 ${out.sqlP50.toFixed(2)} ms (p99 ${out.sqlP99.toFixed(2)}): ` +
      `difference ${out.diffP50.toFixed(2)} ms (per round: ${roundP50.map((d) => d.toFixed(2)).join(', ')})`,
  );
  return out;
}

async function embedded() {
  const { openPGlite } = require(join(ROOT, 'dist/platform/database/pglite-pool.js'));
  const { templateKey } = require(join(ROOT, 'dist/app/embedded-template.js'));
  const { findByNumberSql } = require(join(ROOT, 'dist/dataset/dataset.service.js'));
  const dir = mkdtempSync(join(tmpdir(), 'registry-lookup-lookup-'));
  let app;
  let db;
  try {
    const port = await freePort();
    app = startNode(['dist/main.js'], {
      ...EMBEDDED,
      ...closedRegisters(),
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: join(dir, 'api'),
      REGISTER_GB_PAUSED: 'true',
      RATE_LIMIT_ALLOWLIST: '127.0.0.1',
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
    });
    await waitFor(`http://127.0.0.1:${port}/health/live`, 60_000);
    db = await openPGlite(join(dir, 'direct', 'pglite'), { template: templateKey(true) });
    return await compare('embedded', port, async (n) => (await db.query(findByNumberSql(), ['GB', n])).rows);
  } finally {
    await stop(app);
    await db?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function psql(url, sql) {
  const r = spawnSync('psql', [url, '-X', '-qAt', '-v', 'ON_ERROR_STOP=1', '-c', sql], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`psql: ${r.stderr}`);
  return r.stdout.trim();
}

async function postgres(admin) {
  const { Client } = require('pg');
  const { findByNumberSql } = require(join(ROOT, 'dist/dataset/dataset.service.js'));
  const name = `rl_bench_lookup_${randomBytes(3).toString('hex')}`;
  const url = new URL(admin);
  url.pathname = `/${name}`;
  let app;
  let client;
  psql(admin, `CREATE DATABASE ${name}`);
  try {
    const m = spawnSync(process.execPath, ['dist/cli/migrate.js'], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: url.toString(), LOG_LEVEL: 'warn' },
      encoding: 'utf8',
    });
    if (m.status !== 0) throw new Error(`migrations failed: ${m.stderr}`);
    const port = await freePort();
    app = startNode(['dist/main.js', '--role=api'], {
      ...closedRegisters(),
      DATABASE_URL: url.toString(),
      REDIS_URL: '',
      MIGRATE_ON_BOOT: 'false',
      PORT: String(port),
      HOST: '127.0.0.1',
      REGISTER_GB_PAUSED: 'true',
      RATE_LIMIT_ALLOWLIST: '127.0.0.1',
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
    });
    await waitFor(`http://127.0.0.1:${port}/health/ready`, 60_000);
    client = new Client({ connectionString: url.toString() });
    await client.connect();
    return await compare('Postgres', port, async (n) => (await client.query(findByNumberSql(), ['GB', n])).rows);
  } finally {
    await client?.end();
    await stop(app);
    psql(admin, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}

async function main() {
  ensureBuilt();
  console.log(
    `Lookup by number (GET /api/public/v1/companies/GB/{number}, GB paused: the fallback dataset answers), ${ROUNDS} rounds of ${LOOKUPS}, one at a time`,
  );
  const out = { embedded: await embedded() };
  if (process.env.DATABASE_URL) out.postgres = await postgres(process.env.DATABASE_URL);
  else console.log('DATABASE_URL not set: the Postgres lookup was skipped.');
  return out;
}

module.exports = { main, compare };

if (require.main === module) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
