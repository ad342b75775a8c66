#!/usr/bin/env node
'use strict';
/*
 * Fallback name search over 5 million companies on real Postgres:
 * - p50 / p99 per query through the service's DatasetService, and the same SQL run directly
 *   through `pg` in the same run (the ratio is the cost of our layer);
 * - GET /api/public/v1/search throughput on the fallback path (the register paused, the bench
 *   client allowlisted past the rate limit).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node bench/dataset-search.js
 *   (BENCH_ROWS=5000000, BENCH_REPEAT=30, BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_NO_BUILD=1,
 *    BENCH_KEEP_DB=<name> to reuse a database filled by an earlier run)
 *
 * Names are recombined from the words of real company names in test/fixtures (GB, NO, FR,
 * DK, AU, CA recorded responses): one or two distinctive words (about 100 names share each),
 * often one of 30 common words (about 80,000 names share each), and a legal suffix.
 */
const { randomBytes } = require('node:crypto');
const { readFileSync, readdirSync } = require('node:fs');
const { join } = require('node:path');
const { pipeline } = require('node:stream/promises');
const { Readable } = require('node:stream');
const { Client } = require('pg');
const { from: copyFrom } = require('pg-copy-streams');
const { ROOT, ensureBuilt, freePort, waitFor, cannon, closedRegisters, startNode, stop, row, HEADER } = require('./lib');

const ROWS = Number(process.env.BENCH_ROWS ?? 5_000_000);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 30);

/** Words of every company name in the recorded responses. */
function nameWords() {
  const words = new Set();
  const dir = join(ROOT, 'test/fixtures/registers');
  for (const cc of readdirSync(dir)) {
    for (const file of readdirSync(join(dir, cc))) {
      if (!/\.(json|jsonp|xml|csv)$/.test(file)) continue;
      const text = readFileSync(join(dir, cc, file), 'utf8');
      const names = text.match(/"(?:title|company_name|navn|nom_complet|EntityName|CompanyName|name)"\s*:\s*"([^"]{3,80})"/g) ?? [];
      for (const n of names) for (const w of n.split(':').slice(1).join(':').replace(/"/g, '').split(/[^A-Za-zÀ-ÿ]+/)) if (w.length >= 3) words.add(w.toUpperCase());
    }
  }
  return [...words].filter((w) => !['LIMITED', 'LTD', 'PLC', 'NAME', 'TITLE'].includes(w)).sort();
}

const SUFFIXES = ['LIMITED', 'LTD', 'PLC', 'LLP', 'LIMITED', 'LTD'];
/** Words that very many company names share (each ends up in about 80,000 of the 5 million). */
const COMMON = ['HOLDINGS', 'SERVICES', 'GROUP', 'CONSULTING', 'PROPERTIES', 'TRADING', 'INVESTMENTS', 'SOLUTIONS', 'DEVELOPMENTS', 'MANAGEMENT',
  'INTERNATIONAL', 'ENTERPRISES', 'TECHNOLOGIES', 'VENTURES', 'CAPITAL', 'DESIGN', 'MEDIA', 'ESTATES', 'LOGISTICS', 'ENGINEERING',
  'CONSTRUCTION', 'RETAIL', 'FOODS', 'ENERGY', 'SYSTEMS', 'PARTNERS', 'STUDIO', 'HOMES', 'CARE', 'LEISURE'];

/**
 * Distinctive words, as real names have them ("TESCO", "ABBOTSFORD"): recombined from the
 * beginnings and ends of the real words, so each is shared by about a hundred names.
 */
function distinctiveWords(words) {
  const heads = [...new Set(words.map((w) => w.slice(0, Math.ceil(w.length / 2))))];
  const tails = [...new Set(words.map((w) => w.slice(Math.ceil(w.length / 2))))].filter((t) => t.length >= 2);
  const out = [];
  for (const h of heads) for (const t of tails) out.push(h + t);
  return out;
}

/** Folding as the service does (src/dataset/normalize-name.ts, loaded from dist/). */
function loadNormalize() {
  return require(join(ROOT, 'dist/dataset/normalize-name.js')).normalizeName;
}

/** The i-th generated name: one or two distinctive words, maybe a common one, a legal suffix. */
function nameOf(i, tokens) {
  const t = tokens.length;
  // Multiplicative hashing spreads consecutive i over the token list.
  const a = tokens[(i * 2654435761) % t];
  const b = i % 2 === 0 ? ` ${tokens[(i * 40503 + 7) % t]}` : '';
  const c = i % 3 !== 2 ? ` ${COMMON[i % COMMON.length]}` : '';
  return `${a}${b}${c} ${SUFFIXES[i % SUFFIXES.length]}`;
}

function* companies(tokens, normalizeName) {
  for (let i = 0; i < ROWS; i++) {
    const name = nameOf(i, tokens);
    const number = String(10_000_000 + i).padStart(8, '0');
    yield [
      'GB', number, '{}', name, normalizeName(name), 'Active', 'active', 'Private limited company', `${1 + (i % 300)} HIGH STREET, LONDON`, 'LONDON',
      `${1990 + (i % 35)}-01-0${1 + (i % 9)}`, `https://find-and-update.company-information.service.gov.uk/company/${number}`, 'dataset:bench-5m', 'bench-5m', '2026-11-01T00:00:00Z', '\\N',
    ].join('\t') + '\n';
  }
}

async function fill(url, tokens) {
  const normalizeName = loadNormalize();
  const client = new Client({ connectionString: url });
  await client.connect();
  console.log(`loading ${ROWS.toLocaleString('en')} generated GB companies (${tokens.length.toLocaleString('en')} distinctive words recombined from real names, ${COMMON.length} common words) …`);
  const t0 = Date.now();
  // Faster to build the trigram index once after the load than to maintain it per row.
  await client.query('DROP INDEX IF EXISTS company_name_trgm_gb');
  const copy = client.query(copyFrom(`COPY company (country, registration_number, other_numbers, name, name_normalized, status, status_category, legal_form, address, city, incorporation_date, source_url, source_kind, dataset_name, produced_at, extra) FROM STDIN`));
  await pipeline(Readable.from(companies(tokens, normalizeName)), copy);
  console.log(`  COPY: ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  const t1 = Date.now();
  await client.query("SET maintenance_work_mem = '1GB'");
  await client.query("CREATE INDEX company_name_trgm_gb ON company USING gin (name_normalized gin_trgm_ops) WHERE country = 'GB'");
  await client.query('ANALYZE company');
  // What the importer records of a finished import (the fallback warning names it).
  await client.query(
    `INSERT INTO dataset_import (country, dataset_name, format, file_name, produced_at, status, finished_at, rows_read, rows_inserted, dataset_rows)
     VALUES ('GB', 'bench-5m', 'generated', 'generated', '2026-11-01T00:00:00Z', 'done', now(), $1, $1, $1)`,
    [ROWS],
  );
  console.log(`  trigram index: ${((Date.now() - t1) / 1000).toFixed(0)} s`);
  await client.end();
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function timeIt(fn) {
  const samples = [];
  for (let i = 0; i < REPEAT; i++) {
    const t = process.hrtime.bigint();
    await fn();
    samples.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 50), p99: percentile(samples, 99) };
}

async function main() {
  const admin = process.env.DATABASE_URL;
  if (!admin) throw new Error('DATABASE_URL (a Postgres the bench may create a database on) is required');
  ensureBuilt();
  const tokens = distinctiveWords(nameWords());
  const name = process.env.BENCH_KEEP_DB ?? `rl_bench_${randomBytes(3).toString('hex')}`;
  const url = new URL(admin);
  url.pathname = `/${name}`;
  const adminClient = new Client({ connectionString: admin });
  await adminClient.connect();
  const exists = (await adminClient.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount > 0;
  if (!exists) await adminClient.query(`CREATE DATABASE ${name}`);
  await adminClient.end();
  let app;
  try {
    const env = { DATABASE_URL: url.toString(), DATASET_SEED: 'false' };
    if (!exists) {
      require('./lib').run(process.execPath, ['dist/cli/migrate.js'], { ...env, LOG_LEVEL: 'warn' });
      await fill(url.toString(), tokens);
    }

    // The service's own read path, outside HTTP: DatasetService on a TypeORM DataSource.
    const { DataSource } = require('typeorm');
    const { AppConfig } = require(join(ROOT, 'dist/core/config/app-config.js'));
    const { buildDataSourceOptions } = require(join(ROOT, 'dist/database/data-source-options.js'));
    const { DatasetService, searchSql, exactSearchSql, distinctiveWords } = require(join(ROOT, 'dist/dataset/dataset.service.js'));
    const normalizeName = loadNormalize();
    const config = AppConfig.fromEnv(env);
    const dataSource = await new DataSource(buildDataSourceOptions(config)).initialize();
    const service = new DatasetService(dataSource);
    const direct = new Client({ connectionString: url.toString() });
    await direct.connect();

    // Queries people type: a whole name, part of one, one distinctive word, a typo, a common
    // word with a distinctive one, nothing but common words (the worst case), no match.
    const n = (i) => nameOf(i, tokens);
    const words = (i) => n(i).split(' ');
    const queries = [
      n(1234567),
      words(2345678).slice(0, 2).join(' '),
      words(3456789)[0],
      `${words(4567890)[0].slice(0, -1)}x`,
      `${words(1234567)[0].slice(0, -1)}x ${words(1234567)[1]}`,
      `${words(5678)[0]} ${COMMON[3]}`,
      `${COMMON[0].toLowerCase()} ${COMMON[1].toLowerCase()}`,
      COMMON[2].toLowerCase(),
      'zzyzx qwerty',
    ];
    console.log(`\nFallback name search, ${ROWS.toLocaleString('en')} GB companies, ${REPEAT} runs per query (service vs the same SQL through pg)`);
    console.log(`${'query'.padEnd(40)} ${'hits'.padStart(5)} ${'svc p50'.padStart(8)} ${'svc p99'.padStart(8)} ${'pg p50'.padStart(8)} ${'pg p99'.padStart(8)} ${'ratio'.padStart(6)}`);
    const perQuery = [];
    for (const q of queries) {
      const hits = (await service.searchByName('GB', q, 20)).length;
      const svc = await timeIt(() => service.searchByName('GB', q, 20));
      // The same statements the service runs (the exact pass, then the fuzzy one when short).
      const folded = normalizeName(q);
      const words = distinctiveWords(folded);
      const pg = await timeIt(async () => {
        const exact = words.length ? (await direct.query(exactSearchSql('GB', words.length), [folded, 20, ...words.map((x) => `%${x}%`)])).rows : [];
        if (exact.length === 0) {
          const terms = words.length ? words : [folded];
          await direct.query(searchSql('GB', terms.length), [folded, 20, ...terms]);
        }
      });
      perQuery.push({ q, hits, svc, pg, ratio: svc.p50 / pg.p50 });
      console.log(`${q.slice(0, 40).padEnd(40)} ${String(hits).padStart(5)} ${svc.p50.toFixed(1).padStart(8)} ${svc.p99.toFixed(1).padStart(8)} ${pg.p50.toFixed(1).padStart(8)} ${pg.p99.toFixed(1).padStart(8)} ${(svc.p50 / pg.p50).toFixed(2).padStart(6)}`);
    }
    await direct.end();
    await dataSource.destroy();

    const port = await freePort();
    app = startNode(['dist/main.js', '--role=api'], { ...closedRegisters(), ...env, PORT: String(port), HOST: '127.0.0.1', MIGRATE_ON_BOOT: 'false', REGISTER_GB_PAUSED: 'true', RATE_LIMIT_ALLOWLIST: '127.0.0.1' });
    await waitFor(`http://127.0.0.1:${port}/health/ready`, 60_000);
    const requests = queries.slice(0, 5).map((q) => ({ method: 'GET', path: `/api/public/v1/search?q=${encodeURIComponent(q)}&country=GB` }));
    const http = await cannon('GET /search (fallback dataset, 5 queries)', { url: `http://127.0.0.1:${port}`, requests });
    console.log(`\n${HEADER}\n${row(http.title, http)}`);
    return { rows: ROWS, perQuery, http };
  } finally {
    await stop(app);
    if (!process.env.BENCH_KEEP_DB) {
      const c = new Client({ connectionString: admin });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
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
