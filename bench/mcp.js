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
const { mkdtempSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { gzipSync } = require('node:zlib');
const {
  EMBEDDED,
  ROOT,
  run,
  ensureBuilt,
  freePort,
  waitFor,
  cannon: benchCannon,
  closedRegisters,
  startNode,
  stop,
} = require('./lib');

const ROWS = Number(process.env.BENCH_ROWS ?? 5000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const QUERY = process.env.BENCH_QUERY ?? 'Fjord Invest';

const WORDS_A = [
  'Fjord',
  'Nordlys',
  'Vestland',
  'Polar',
  'Kyst',
  'Berg',
  'Skog',
  'Havbris',
  'Midnatt',
  'Tinde',
  'Elv',
  'Viking',
];
const WORDS_B = [
  'Invest',
  'Eiendom',
  'Consulting',
  'Shipping',
  'Bygg',
  'Energi',
  'Holding',
  'Fisk',
  'Data',
  'Transport',
  'Handel',
  'Media',
];
const FORMS = [
  ['AS', 'Aksjeselskap'],
  ['ASA', 'Allmennaksjeselskap'],
  ['ENK', 'Enkeltpersonforetak'],
];
const CITIES = [
  ['0150', 'OSLO', '0301', 'OSLO'],
  ['5003', 'BERGEN', '4601', 'BERGEN'],
  ['7010', 'TRONDHEIM', '5001', 'TRONDHEIM'],
  ['9008', 'TROMSØ', '5501', 'TROMSØ'],
];

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
  const recorded = JSON.parse(
    readFileSync(
      join(ROOT, 'test/fixtures/registers/no/brreg-enheter-search-organisasjonsform-asa-size5.json'),
      'utf8',
    ),
  );
  const template = recorded._embedded.enheter[0];
  const numbers = orgnrs(91000000);
  const units = [];
  for (let i = 0; i < rows; i++) {
    const orgnr = numbers.next().value;
    const [kode, beskrivelse] = FORMS[i % FORMS.length];
    const [postnummer, poststed, kommunenummer, kommune] = CITIES[i % CITIES.length];
    const name =
      `${WORDS_A[i % WORDS_A.length]} ${WORDS_B[Math.floor(i / WORDS_A.length) % WORDS_B.length]} ${i} ${kode}`.toUpperCase();
    units.push({
      ...template,
      organisasjonsnummer: orgnr,
      navn: name,
      organisasjonsform: { kode, beskrivelse },
      forretningsadresse: {
        land: 'Norge',
        landkode: 'NO',
        postnummer,
        poststed,
        adresse: [`Storgata ${(i % 200) + 1}`],
        kommune,
        kommunenummer,
      },
      stiftelsesdato: `${1990 + (i % 30)}-0${(i % 9) + 1}-1${i % 9}`,
      _links: { self: { href: `https://data.brreg.no/enhetsregisteret/api/enheter/${orgnr}` } },
    });
  }
  return gzipSync(JSON.stringify(units));
}

function cannon(title, opts) {
  return benchCannon(title, { connections: CONNECTIONS, duration: SECONDS, ...opts });
}

async function main() {
  ensureBuilt();
  const dir = mkdtempSync(join(tmpdir(), 'registry-lookup-bench-mcp-'));
  const dataDir = join(dir, 'data');
  let app;
  try {
    const file = join(dir, 'enheter.json.gz');
    writeFileSync(file, generateEnheter(ROWS));
    console.log(`importing ${ROWS} NO units into ${dataDir} …`);
    run(
      process.execPath,
      [
        'dist/cli/dataset-import.js',
        '--country',
        'NO',
        '--file',
        file,
        '--dataset-name',
        'bench-enheter',
        '--produced-at',
        '2026-11-01',
      ],
      { ...EMBEDDED, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    );

    // Every register at a closed port: nothing leaves the machine, probes fail fast.
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    app = startNode(['dist/main.js'], {
      ...EMBEDDED,
      ...closedRegisters(),
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      RATE_LIMIT_ALLOWLIST: '127.0.0.1',
      REGISTER_NO_PAUSED: 'true',
      PROBE_INTERVAL_SECONDS: '86400',
    });
    await waitFor(`${base}/health/live`, 60_000);

    // A name search (trigram search in the dataset) and a registration-number lookup (an index
    // hit, so the HTTP/MCP layers weigh more), each through REST and through MCP.
    const firstNumber = orgnrs(91000000).next().value;
    const scenarios = [
      { label: `name "${QUERY}"`, q: QUERY },
      { label: `number ${firstNumber}`, q: firstNumber },
    ];
    const mcpHeaders = {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'MCP-Protocol-Version': '2025-11-25',
    };
    console.log(
      `${CONNECTIONS} connections, ${SECONDS} s per run, ${ROWS} NO rows, register paused (fallback dataset)\n`,
    );
    console.log('query                        endpoint                           req/s   p50 ms   p99 ms');
    const report = { rows: ROWS, connections: CONNECTIONS, seconds: SECONDS, scenarios: [] };
    for (const { label, q } of scenarios) {
      const restPath = `/api/public/v1/search?q=${encodeURIComponent(q)}&country=NO`;
      const mcpBody = JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'search_companies', arguments: { q, country: 'NO' } },
      });
      // Both must answer the same thing from the dataset before their speed means anything.
      const rest = await (await fetch(base + restPath)).json();
      const mcp = await (
        await fetch(`${base}/api/public/v1/mcp`, { method: 'POST', headers: mcpHeaders, body: mcpBody })
      ).json();
      if (JSON.stringify(mcp.result?.structuredContent) !== JSON.stringify(rest))
        throw new Error(`${label}: MCP and REST answers differ`);
      if (rest.register.status !== 'paused' || rest.count === 0)
        throw new Error(
          `${label}: expected a fallback answer with results, got status ${rest.register.status}, count ${rest.count}`,
        );
      const r = await cannon('REST GET /search', { url: base + restPath });
      const m = await cannon('MCP tools/call search_companies', {
        url: `${base}/api/public/v1/mcp`,
        method: 'POST',
        headers: mcpHeaders,
        body: mcpBody,
      });
      for (const x of [r, m])
        console.log(
          `${label.padEnd(28)} ${x.title.padEnd(32)} ${x.rps.toFixed(0).padStart(7)} ${String(x.p50).padStart(8)} ${String(x.p99).padStart(8)}`,
        );
      const ratio = m.rps / r.rps;
      console.log(`${''.padEnd(28)} MCP / REST throughput ratio: ${ratio.toFixed(2)} (${rest.count} results)\n`);
      report.scenarios.push({ label, results: rest.count, rest: r, mcp: m, ratio });
    }
    return report;
  } finally {
    await stop(app);
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
