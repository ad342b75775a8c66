#!/usr/bin/env node
/*
 * Import benchmark: `npm run dataset:import` on a generated 1,000,000-row Companies House
 * BasicCompanyData CSV, against `psql \copy` of the same file into a plain table with the
 * file's 55 columns (text, no index): the raw cost of moving the bytes into Postgres.
 *
 *   npm run build
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node bench/import.js [rows]
 *
 * Works in a fresh database created next to the one DATABASE_URL names (dropped at the end),
 * so the import inserts every row (a re-import of the same file would only compare rows).
 * Needs `psql` on the PATH and the compiled dist/ (`npm run build`).
 */
'use strict';
const { spawnSync } = require('node:child_process');
const { once } = require('node:events');
const { createWriteStream, existsSync, readFileSync, statSync, unlinkSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { randomBytes } = require('node:crypto');

const ROOT = join(__dirname, '..');
const ROWS = Number(process.argv[2] || 1_000_000);
const base = process.env.DATABASE_URL;

function fail(message) {
  console.error(`bench/import: ${message}`);
  process.exit(1);
}

if (!base) fail('set DATABASE_URL (postgres://…) first');
if (!existsSync(join(ROOT, 'dist', 'cli', 'dataset-import.js'))) fail('dist/cli/dataset-import.js is missing: run `npm run build` first');
if (spawnSync('psql', ['--version']).status !== 0) fail('psql is not on the PATH');

function psql(url, args, options = {}) {
  const r = spawnSync('psql', [url, '-v', 'ON_ERROR_STOP=1', '-qAt', ...args], { encoding: 'utf8', ...options });
  if (r.status !== 0) fail(`psql failed: ${(r.stderr || r.stdout).trim()}`);
  return r.stdout.trim();
}

const WORDS = ['SESAM', 'STASJON', 'MAGENTA', 'GANYMEDE', 'DANONE', 'ONEFLARE', 'ABBOTSFORD', 'CHAMBER', 'COMMERCE', 'TIETGEN', 'INVEST', 'ASSURE', 'WEALTH', 'NEWTON', 'HUNSLET', 'PEPPER', 'ROMILEY', 'SUNDAL', 'COLLIER', 'AGILYX'];
const q = (v) => `"${String(v).replace(/"/g, '""')}"`;

/** Streams a BasicCompanyData CSV: the real 55-column header, rows shaped like the real sample's. */
async function generate(path, rows) {
  const header = readFileSync(join(ROOT, 'test/fixtures/registers/gb/ch-bulk-basiccompanydata-sample.csv'), 'utf8').split('\n')[0];
  const out = createWriteStream(path, { highWaterMark: 1024 * 1024 });
  const closed = once(out, 'close');
  out.write(`${header}\n`);
  for (let start = 0; start < rows; start += 2000) {
    let chunk = '';
    for (let i = start; i < Math.min(rows, start + 2000); i++) {
      const n = String(i + 1).padStart(8, '0');
      const name = `${WORDS[i % WORDS.length]} ${WORDS[Math.floor(i / WORDS.length) % WORDS.length]} ${(i % 9973).toString(36).toUpperCase()} LIMITED`;
      const date = `${String((i % 28) + 1).padStart(2, '0')}/${String((i % 12) + 1).padStart(2, '0')}/${1950 + (i % 74)}`;
      chunk +=
        [
          q(name), q(n), q(''), q(''), q(`UNIT ${i % 97} NEWTON BUSINESS CENTRE`), q('NEWTON CHAMBERS ROAD'), q('SHEFFIELD'), q(''), q('UNITED KINGDOM'), q('S35 2PH'),
          q('Private Limited Company'), q(i % 10 === 0 ? 'Liquidation' : 'Active'), q('United Kingdom'), q(''), q(date), q('31'), q('7'), q('29/04/2022'), q(''), q('NO ACCOUNTS FILED'),
          q('26/08/2021'), q(''), q('0'), q('0'), q('0'), q('0'), q('78300 - Human resources provision and management of human resources functions'), q(''), q(''), q(''),
          q('0'), q('0'), q(`http://business.data.gov.uk/id/company/${n}`), ...Array.from({ length: 20 }, () => q('')), q('11/08/2021'), q(''),
        ].join(',') + '\n';
    }
    if (!out.write(chunk)) await once(out, 'drain');
  }
  out.end();
  await closed;
  return header;
}

async function main() {
  const file = join(tmpdir(), `rl-bench-import-${process.pid}.csv`);
  const dbName = `rl_bench_import_${randomBytes(4).toString('hex')}`;
  const url = new URL(base);
  url.pathname = `/${dbName}`;
  const dbUrl = url.toString();
  psql(base, ['-c', `CREATE DATABASE ${dbName}`]);
  try {
    let t = Date.now();
    const header = await generate(file, ROWS);
    const size = statSync(file).size;
    console.log(`generated ${ROWS.toLocaleString('en-US')} rows, ${(size / 1048576).toFixed(0)} MB, in ${((Date.now() - t) / 1000).toFixed(1)} s`);

    // Migrations first, outside the timing (the CLI applies them itself; here they are already there).
    const migrate = spawnSync('npm', ['run', '--silent', 'migration:run'], { cwd: ROOT, env: { ...process.env, DATABASE_URL: dbUrl, DATASET_SEED: 'false' }, encoding: 'utf8' });
    if (migrate.status !== 0) fail(`migrations failed: ${migrate.stderr || migrate.stdout}`);

    t = Date.now();
    const run = spawnSync('npm', ['run', '--silent', 'dataset:import', '--', '--country', 'GB', '--file', file, '--produced-at', '2024-05-01'], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: dbUrl },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const importSeconds = (Date.now() - t) / 1000;
    if (run.status !== 0) fail(`dataset:import failed: ${run.stderr || run.stdout}`);
    process.stdout.write(run.stdout);
    const imported = Number(psql(dbUrl, ['-c', `SELECT count(*) FROM company WHERE country = 'GB'`]));

    const columns = header.split(',').map((c, i) => `"c${i}_${c.trim().replace(/[^A-Za-z0-9]/g, '_')}" text`);
    psql(dbUrl, ['-c', `CREATE TABLE bench_plain (${columns.join(', ')})`]);
    t = Date.now();
    psql(dbUrl, ['-c', `\\copy bench_plain FROM '${file}' WITH (FORMAT csv, HEADER true)`]);
    const copySeconds = (Date.now() - t) / 1000;
    const copied = Number(psql(dbUrl, ['-c', 'SELECT count(*) FROM bench_plain']));

    const importRate = imported / importSeconds;
    const copyRate = copied / copySeconds;
    console.log('');
    console.log(`npm run dataset:import  ${imported.toLocaleString('en-US')} rows in ${importSeconds.toFixed(1)} s = ${Math.round(importRate).toLocaleString('en-US')} rows/s (parse, normalise, COPY to staging, upsert into the indexed company table)`);
    console.log(`psql \\copy (plain)      ${copied.toLocaleString('en-US')} rows in ${copySeconds.toFixed(1)} s = ${Math.round(copyRate).toLocaleString('en-US')} rows/s (55 text columns, no index, no upsert)`);
    console.log(`ratio                   dataset:import takes ${(importSeconds / copySeconds).toFixed(2)}× the time of a raw \\copy (${((100 * importRate) / copyRate).toFixed(0)}% of its rate)`);
  } finally {
    try {
      unlinkSync(file);
    } catch {
      /* not created */
    }
    psql(base, ['-c', `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`]);
  }
}

module.exports = { main };

if (require.main === module) main().catch((err) => fail(err.message));
