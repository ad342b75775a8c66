#!/usr/bin/env node
'use strict';
/*
 * Throughput of `tools/call search_companies` over MCP next to GET /api/public/v1/search for
 * the same query, on the fallback-dataset path (the NO register paused, so both answer from
 * the dataset and nothing leaves the machine).
 *
 *   node bench/mcp.js                       # builds dist/ first (BENCH_NO_BUILD=1 to skip)
 *   BENCH_ROWS=5000 BENCH_SECONDS=10 BENCH_CONNECTIONS=10 BENCH_QUERY="Fjord Invest" node bench/mcp.js
 *
 * Steps: generate a gzipped Enhetsregisteret bulk file (BENCH_ROWS units, shaped like the
 * recorded units in test/fixtures), import it with the dataset importer into a fresh
 * DATA_DIR (embedded PGlite), start dist/main.js on it with REGISTER_NO_PAUSED=true and
 * 127.0.0.1 allowlisted from the rate limit, check that both endpoints give the same
 * answer, then run autocannon against each in turn.
 */
const { spawn, spawnSync } = require('node:child_process');
const { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const { createServer } = require('node:net');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { gzipSync } = require('node:zlib');
const autocannon = require('autocannon');

const ROOT = join(__dirname, '..');
const ROWS = Number(process.env.BENCH_ROWS ?? 5000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const QUERY = process.env.BENCH_QUERY ?? 'Fjord Invest';

const WORDS_A = ['Fjord', 'Nordlys', 'Vestland', 'Polar', 'Kyst', 'Berg', 'Skog', 'Havbris', 'Midnatt', 'Tinde', 'Elv', 'Viking'];
const WORDS_B = ['Invest', 'Eiendom', 'Consulting', 'Shipping', 'Bygg', 'Energi', 'Holding', 'Fisk', 'Data', 'Transport', 'Handel', 'Media'];
const FORMS = [
  ['AS', 'Aksjeselskap'],
  ['ASA', 'Allmennaksjeselskap'],
  ['ENK', 'Enkeltpersonforetak'],
];
const CITIES = [['0150', 'OSLO', '0301', 'OSLO'], ['5003', 'BERGEN', '4601', 'BERGEN'], ['7010', 'TRONDHEIM', '5001', 'TRONDHEIM'], ['9008', 'TROMSØ', '5501', 'TROMSØ']];

/** Valid organisasjonsnummer (mod 11, weights 3,2,7,6,5,4,3,2), counting up from `from`. */
function* orgnrs(from) {
  const weights = [3, 2, 7, 6, 5, 4, 3, 2];
  for (let n = from; ; n++) {
    const digits = String(n).padStart(8, '0');
    const sum = weights.reduce((s, w, i) => s + w * Number(digits[i]), 0);
    const check = sum % 11 === 0 ? 0 : 11 - (sum % 11);
    if (check !== 10) yield digits + check;
  }
}

/** Units shaped like the recorded ones (the first unit of the recorded ASA search is the template). */
function generateEnheter(rows) {
  const recorded = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/registers/no/brreg-enheter-search-organisasjonsform-asa-size5.json'), 'utf8'));
  const template = recorded._embedded.enheter[0];
  const numbers = orgnrs(91000000);
  const units = [];
  for (let i = 0; i < rows; i++) {
    const orgnr = numbers.next().value;
    const [kode, beskrivelse] = FORMS[i % FORMS.length];
    const [postnummer, poststed, kommunenummer, kommune] = CITIES[i % CITIES.length];
    const name = `${WORDS_A[i % WORDS_A.length]} ${WORDS_B[Math.floor(i / WORDS_A.length) % WORDS_B.length]} ${i} ${kode}`.toUpperCase();
    units.push({
      ...template,
      organisasjonsnummer: orgnr,
      navn: name,
      organisasjonsform: { kode, beskrivelse },
      forretningsadresse: { land: 'Norge', landkode: 'NO', postnummer, poststed, adresse: [`Storgata ${(i % 200) + 1}`], kommune, kommunenummer },
      stiftelsesdato: `${1990 + (i % 30)}-0${(i % 9) + 1}-1${i % 9}`,
      _links: { self: { href: `https://data.brreg.no/enhetsregisteret/api/enheter/${orgnr}` } },
    });
  }
  return gzipSync(JSON.stringify(units));
}

function run(cmd, args, env) {
  const r = spawnSync(cmd, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited with ${r.status}`);
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
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer within ${ms} ms`);
}

function cannon(title, opts) {
  return new Promise((resolve, reject) => {
    autocannon({ connections: CONNECTIONS, duration: SECONDS, ...opts }, (err, result) => {
      if (err) return reject(err);
      const bad = result.non2xx + result.errors + result.timeouts;
      if (bad > 0) return reject(new Error(`${title}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`));
      resolve({ title, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, total: result.requests.total });
    });
  });
}

async function main() {
  if (process.env.BENCH_NO_BUILD !== '1' || !existsSync(join(ROOT, 'dist/mcp/mcp.module.js'))) {
    console.log('building dist/ …');
    run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], {});
  }
  const dir = mkdtempSync(join(tmpdir(), 'registry-lookup-bench-mcp-'));
  const dataDir = join(dir, 'data');
  let app;
  try {
    const file = join(dir, 'enheter.json.gz');
    writeFileSync(file, generateEnheter(ROWS));
    console.log(`importing ${ROWS} NO units into ${dataDir} …`);
    run(process.execPath, ['dist/cli/dataset-import.js', '--country', 'NO', '--file', file, '--dataset-name', 'bench-enheter', '--produced-at', '2026-11-01'], { DATA_DIR: dataDir, LOG_LEVEL: 'warn' });

    // Every register at a closed port: nothing leaves the machine, probes fail fast.
    const { REGISTER_TABLE } = require(join(ROOT, 'dist/registers/register-table.js'));
    const closed = {};
    for (const def of REGISTER_TABLE) for (const purpose of Object.keys(def.endpoints)) closed[`REGISTER_${def.country}_${purpose}_URL`] = `http://127.0.0.1:9/${def.country.toLowerCase()}/${purpose.toLowerCase()}`;
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    app = spawn(process.execPath, ['dist/main.js'], {
      cwd: ROOT,
      env: { ...process.env, ...closed, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', RATE_LIMIT_ALLOWLIST: '127.0.0.1', REGISTER_NO_PAUSED: 'true', PROBE_INTERVAL_SECONDS: '86400' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    await waitFor(`${base}/health/live`, 60_000);

    // A name search (trigram search in the dataset) and a registration-number lookup (an index
    // hit, so the HTTP/MCP layers weigh more), each through REST and through MCP.
    const firstNumber = orgnrs(91000000).next().value;
    const scenarios = [
      { label: `name "${QUERY}"`, q: QUERY },
      { label: `number ${firstNumber}`, q: firstNumber },
    ];
    const mcpHeaders = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': '2025-11-25' };
    console.log(`${CONNECTIONS} connections, ${SECONDS} s per run, ${ROWS} NO rows, register paused (fallback dataset)\n`);
    console.log('query                        endpoint                           req/s   p50 ms   p99 ms');
    const report = { rows: ROWS, connections: CONNECTIONS, seconds: SECONDS, scenarios: [] };
    for (const { label, q } of scenarios) {
      const restPath = `/api/public/v1/search?q=${encodeURIComponent(q)}&country=NO`;
      const mcpBody = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_companies', arguments: { q, country: 'NO' } } });
      // Both must answer the same thing from the dataset before their speed means anything.
      const rest = await (await fetch(base + restPath)).json();
      const mcp = await (await fetch(`${base}/api/public/v1/mcp`, { method: 'POST', headers: mcpHeaders, body: mcpBody })).json();
      if (JSON.stringify(mcp.result?.structuredContent) !== JSON.stringify(rest)) throw new Error(`${label}: MCP and REST answers differ`);
      if (rest.register.status !== 'paused' || rest.count === 0) throw new Error(`${label}: expected a fallback answer with results, got status ${rest.register.status}, count ${rest.count}`);
      const r = await cannon('REST GET /search', { url: base + restPath });
      const m = await cannon('MCP tools/call search_companies', { url: `${base}/api/public/v1/mcp`, method: 'POST', headers: mcpHeaders, body: mcpBody });
      for (const x of [r, m]) console.log(`${label.padEnd(28)} ${x.title.padEnd(32)} ${x.rps.toFixed(0).padStart(7)} ${String(x.p50).padStart(8)} ${String(x.p99).padStart(8)}`);
      const ratio = m.rps / r.rps;
      console.log(`${''.padEnd(28)} MCP / REST throughput ratio: ${ratio.toFixed(2)} (${rest.count} results)\n`);
      report.scenarios.push({ label, results: rest.count, rest: r, mcp: m, ratio });
    }
    return report;
  } finally {
    if (app && app.exitCode === null && app.signalCode === null) {
      const exited = new Promise((r) => app.once('exit', r));
      app.kill('SIGTERM');
      await exited;
    }
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
