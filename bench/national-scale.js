#!/usr/bin/env node
'use strict';
/*
 * Issue 12 at national scale, in one run on real Postgres:
 * 1. writes realistic bulk files (bench/bulk-generator.js): BENCH_ROWS GB rows in the official
 *    BasicCompanyData layout (default 5,000,000) and BENCH_NO_ROWS NO units (default 1,000,000);
 * 2. imports each with `npm run dataset:import` into a fresh database, and loads the same file
 *    with `psql \copy` into a plain table (GB: its 55 text columns; NO: one text column per line
 *    of the decompressed file) in the same run: rows/s and the ratio;
 * 3. starts the api with GB paused (every search answered by the fallback dataset) and sends the
 *    query classes of bench/query-classes.js one at a time through GET /api/public/v1/search:
 *    p50 / p99 / max and the found-rate per class; a lookup by number (GET
 *    /api/public/v1/companies/GB/{number}) against its own SQL on the same numbers, alternating
 *    rounds (bench/lookup.js's compare); then a rotating mix on 10 connections;
 * 4. the embedded default: `npm start` on an empty DATA_DIR to the first 200, and its idle RSS
 *    (bench/foundation.js).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node bench/national-scale.js
 *   (BENCH_ROWS, BENCH_NO_ROWS, BENCH_QUERIES=100 per class, BENCH_SECONDS, BENCH_KEEP_DB=<name>
 *    to reuse an imported database, BENCH_SKIP_EMBEDDED=1, BENCH_ONLY=import for steps 1-2 only,
 *    BENCH_KEEP_FILES=1 to keep the generated files in the temporary directory for the next run)
 */
const { spawnSync } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const { existsSync, statSync, unlinkSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { Client } = require('pg');
const {
  ROOT,
  ensureBuilt,
  freePort,
  waitFor,
  cannon,
  closedRegisters,
  startNode,
  stop,
  row,
  HEADER,
  percentile,
} = require('./lib');
const { generateGb, generateNo } = require('./bulk-generator');
const { buildClasses, judge } = require('./query-classes');
const { compare } = require('./lookup');

const ROWS = Number(process.env.BENCH_ROWS ?? 5_000_000);
const NO_ROWS = Number(process.env.BENCH_NO_ROWS ?? 1_000_000);
const PER_CLASS = Number(process.env.BENCH_QUERIES ?? 100);
const LIMIT = 20;

function psql(url, args) {
  const r = spawnSync('psql', [url, '-X', '-v', 'ON_ERROR_STOP=1', '-qAt', ...args], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`psql failed: ${(r.stderr || r.stdout).trim()}`);
  return r.stdout.trim();
}

function seconds(fn) {
  const t = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - t) / 1e9;
}

function importFile(url, country, file) {
  const r = spawnSync(
    process.execPath,
    ['dist/cli/dataset-import.js', '--country', country, '--file', file, '--produced-at', '2026-11-01'],
    {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: 'warn' },
      encoding: 'utf8',
    },
  );
  if (r.status !== 0) throw new Error(`dataset:import ${country} failed: ${r.stderr || r.stdout}`);
  return r.stdout;
}

/** `dataset:import` against `psql \copy` of the same file, in the same database. */
function compareImport(url, country, file, rows) {
  const importSeconds = seconds(() => importFile(url, country, file));
  let copySeconds;
  if (country === 'GB') {
    const header = spawnSync('head', ['-1', file], { encoding: 'utf8' }).stdout;
    const columns = header.split(',').map((_, i) => `c${i} text`);
    psql(url, ['-c', `DROP TABLE IF EXISTS plain_gb; CREATE TABLE plain_gb (${columns.join(', ')})`]);
    copySeconds = seconds(() => psql(url, ['-c', `\\copy plain_gb FROM '${file}' WITH (FORMAT csv, HEADER true)`]));
  } else {
    // Each line of the decompressed JSON array as it is (no quoting, no escapes).
    psql(url, ['-c', 'DROP TABLE IF EXISTS plain_no; CREATE TABLE plain_no (line text)']);
    copySeconds = seconds(() =>
      psql(url, [
        '-c',
        `\\copy plain_no FROM PROGRAM 'gzip -dc ${file}' WITH (FORMAT csv, DELIMITER E'\\x01', QUOTE E'\\x02')`,
      ]),
    );
  }
  const imported = Number(psql(url, ['-c', `SELECT count(*) FROM company WHERE country = '${country}'`]));
  return {
    country,
    rows,
    imported,
    importSeconds,
    copySeconds,
    importRate: imported / importSeconds,
    copyRate: rows / copySeconds,
    ratio: copySeconds / importSeconds,
  };
}

async function timedClasses(baseUrl, classes) {
  const report = [];
  for (const [kind, queries] of Object.entries(classes)) {
    const ms = [];
    let found = 0;
    let loose = 0;
    let judged = 0;
    let empty = 0;
    let slowest = { ms: 0, q: '' };
    for (const query of queries) {
      const t = process.hrtime.bigint();
      const res = await fetch(`${baseUrl}/api/public/v1/search?q=${encodeURIComponent(query.q)}&country=GB`);
      const body = await res.json();
      const took = Number(process.hrtime.bigint() - t) / 1e6;
      if (res.status !== 200) throw new Error(`${query.q}: HTTP ${res.status} ${JSON.stringify(body).slice(0, 200)}`);
      ms.push(took);
      if (took > slowest.ms) slowest = { ms: took, q: query.q };
      if (body.results.length === 0) empty += 1;
      const j = judge(kind, query, body.results);
      if (j.found !== null) {
        judged += 1;
        found += j.found ? 1 : 0;
        loose += j.loose ? 1 : 0;
      }
    }
    ms.sort((a, b) => a - b);
    report.push({
      kind,
      n: queries.length,
      p50: percentile(ms, 50),
      p99: percentile(ms, 99),
      max: ms[ms.length - 1],
      slowest,
      found: judged ? found / judged : null,
      loose: judged ? loose / judged : null,
      empty,
    });
  }
  return report;
}

async function main() {
  const admin = process.env.DATABASE_URL;
  if (!admin) throw new Error('DATABASE_URL (a Postgres the bench may create a database on) is required');
  if (spawnSync('psql', ['--version']).status !== 0) throw new Error('psql is not on the PATH');
  ensureBuilt();
  const name = process.env.BENCH_KEEP_DB ?? `rl_bench_scale_${randomBytes(3).toString('hex')}`;
  const url = new URL(admin);
  url.pathname = `/${name}`;
  const dbUrl = url.toString();
  const exists = psql(admin, ['-c', `SELECT 1 FROM pg_database WHERE datname = '${name}'`]) === '1';
  const gbFile = join(tmpdir(), `BasicCompanyData-bench-${ROWS}.csv`);
  const noFile = join(tmpdir(), `enheter-bench-${NO_ROWS}.json.gz`);
  let app;
  const out = { rows: ROWS };
  try {
    if (!exists) {
      psql(admin, ['-c', `CREATE DATABASE ${name}`]);
      const m = spawnSync(process.execPath, ['dist/cli/migrate.js'], {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: dbUrl, DATASET_SEED: 'false', LOG_LEVEL: 'warn' },
        encoding: 'utf8',
      });
      if (m.status !== 0) throw new Error(`migrations failed: ${m.stderr}`);
      for (const [file, gen, rows] of [
        [gbFile, generateGb, ROWS],
        [noFile, generateNo, NO_ROWS],
      ]) {
        if (existsSync(file)) continue;
        const t = Date.now();
        await gen(file, rows);
        console.log(
          `generated ${file}: ${rows.toLocaleString('en')} rows, ${(statSync(file).size / 1048576).toFixed(0)} MB, ${((Date.now() - t) / 1000).toFixed(0)} s`,
        );
      }
      out.imports = [compareImport(dbUrl, 'GB', gbFile, ROWS), compareImport(dbUrl, 'NO', noFile, NO_ROWS)];
      console.log(`\nImport (dataset:import into an empty dataset vs psql \\copy of the same file into a plain table)`);
      for (const i of out.imports) {
        console.log(
          `${i.country}: ${i.imported.toLocaleString('en')} rows in ${i.importSeconds.toFixed(1)} s = ${Math.round(i.importRate).toLocaleString('en')} rows/s; ` +
            `\\copy ${i.copySeconds.toFixed(1)} s = ${Math.round(i.copyRate).toLocaleString('en')} rows/s; ratio ${i.ratio.toFixed(2)}`,
        );
      }
      psql(dbUrl, ['-c', 'DROP TABLE IF EXISTS plain_gb; DROP TABLE IF EXISTS plain_no']);
    }
    if (process.env.BENCH_ONLY === 'import') return out;

    const client = new Client({ connectionString: dbUrl });
    await client.connect();
    const rows = Number(psql(dbUrl, ['-c', `SELECT count(*) FROM company WHERE country = 'GB'`]));
    const classes = await buildClasses({
      rows,
      perClass: PER_CLASS,
      limit: LIMIT,
      counts: async (words) =>
        new Map(
          (
            await client.query(
              `SELECT word, companies FROM company_word WHERE country = 'GB' AND word = ANY($1::text[])`,
              [words],
            )
          ).rows.map((r) => [r.word, Number(r.companies)]),
        ),
      beginning: async (prefix, limit) => {
        const words = prefix.split(' ');
        const q = words.map((w, k) => (k === words.length - 1 ? `'${w}':*` : `'${w}'`)).join(' & ');
        const r = await client.query(
          `SELECT count(*)::int AS n FROM (SELECT 1 FROM company WHERE country = 'GB' AND array_to_tsvector(string_to_array(name_normalized, ' ')) @@ $1::tsquery AND name_normalized LIKE $2 LIMIT $3) s`,
          [q, `${prefix}%`, limit],
        );
        return r.rows[0].n;
      },
    });
    await client.end();

    const port = await freePort();
    app = startNode(['dist/main.js', '--role=api'], {
      ...closedRegisters(),
      DATABASE_URL: dbUrl,
      REDIS_URL: '',
      PORT: String(port),
      HOST: '127.0.0.1',
      MIGRATE_ON_BOOT: 'false',
      REGISTER_GB_PAUSED: 'true',
      RATE_LIMIT_ALLOWLIST: '127.0.0.1',
    });
    const base = `http://127.0.0.1:${port}`;
    await waitFor(`${base}/health/ready`, 60_000);
    // One pass to warm caches, as a service that has been up a while has them.
    await timedClasses(base, classes);
    out.classes = await timedClasses(base, classes);
    console.log(
      `\nGET /api/public/v1/search, GB paused (fallback dataset of ${rows.toLocaleString('en')} companies), ${PER_CLASS} queries per class, one at a time`,
    );
    console.log(
      `${'class'.padEnd(8)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'max ms'.padStart(7)}  ${'found'.padStart(6)} ${'found*'.padStart(7)} ${'empty'.padStart(5)}  slowest`,
    );
    for (const c of out.classes) {
      const pct = (x) => (x === null ? '—' : `${(100 * x).toFixed(0)}%`);
      console.log(
        `${c.kind.padEnd(8)} ${c.p50.toFixed(1).padStart(7)} ${c.p99.toFixed(1).padStart(7)} ${c.max.toFixed(1).padStart(7)}  ${pct(c.found).padStart(6)} ${pct(c.loose).padStart(7)} ${String(c.empty).padStart(5)}  "${c.slowest.q}"`,
      );
    }
    console.log(
      'found* counts a result with exactly the name (exact, typo) and a prefix that 20+ names begin with (prefix)',
    );

    // GET /companies/GB/{number} against its own SQL through pg, on the numbers of the class.
    const { findByNumberSql } = require(join(ROOT, 'dist/dataset/dataset.service.js'));
    const direct = new Client({ connectionString: dbUrl });
    await direct.connect();
    try {
      console.log('');
      out.lookup = await compare(
        'lookup by number (GET /companies/GB/{number}) over its SQL:',
        Number(port),
        async (n) => (await direct.query(findByNumberSql(), ['GB', n])).rows,
        classes.number.map((x) => x.q),
      );
    } finally {
      await direct.end();
    }

    const mix = Object.values(classes)
      .flatMap((qs) => qs.slice(0, 20))
      .map((x) => ({ method: 'GET', path: `/api/public/v1/search?q=${encodeURIComponent(x.q)}&country=GB` }));
    const http = await cannon('GET /search, rotating mix of every class', { url: base, requests: mix });
    out.mix = http;
    console.log(`\n${HEADER}\n${row(http.title, http)}`);
    await stop(app);
    app = undefined;

    if (process.env.BENCH_SKIP_EMBEDDED !== '1') {
      const { embeddedStart } = require('./foundation');
      out.embedded = await embeddedStart();
      console.log(
        `\nembedded default: npm start on an empty DATA_DIR to the first 200 in ${out.embedded.coldStartMs.toFixed(0)} ms; idle RSS ${out.embedded.idleRssMb.toFixed(0)} MB`,
      );
    }
    return out;
  } finally {
    await stop(app);
    if (!process.env.BENCH_KEEP_DB) {
      psql(admin, ['-c', `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`]);
      if (process.env.BENCH_KEEP_FILES !== '1') for (const f of [gbFile, noFile]) if (existsSync(f)) unlinkSync(f);
    }
  }
}

module.exports = { main };

if (require.main === module) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
