#!/usr/bin/env node
'use strict';
/*
 * What compressed answers buy and cost. Bytes on the wire for what a browser loads (the /docs
 * page with Swagger UI and the OpenAPI document, the search page, a search answer), sent as
 * they are (identity, the baseline) and as gzip and br, from one all-in-one process on the
 * embedded default; then the api's throughput for GET /registers and a search answered from
 * the bundled sample (both sent as they are: under 16 KiB) and GET /status (compressed), with
 * and without `Accept-Encoding: gzip` (autocannon on loopback, where bytes cost nothing: the CPU
 * that compression spends is all that shows).
 *
 *   node bench/compression.js     (BENCH_ROUNDS=5, BENCH_SECONDS=3, BENCH_CONNECTIONS=10,
 *                                  BENCH_NO_BUILD=1)
 */
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { request } = require('node:http');
const {
  median,
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

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

const DOCS = [
  '/docs/',
  '/docs/swagger-ui.css',
  '/docs/swagger-ui-bundle.js',
  '/docs/swagger-ui-standalone-preset.js',
  '/docs/swagger-ui-init.js',
  '/api/public/v1/openapi.json',
];
const SEARCH_PAGE = ['/', '/assets/search.js', '/assets/styles.css', '/api/public/v1/registers'];
const SEARCH = '/api/public/v1/search?q=sesam&country=NO';

/** The bytes the body takes on the wire (node:http does not decode: what was sent is counted). */
function wireBytes(port, path, encoding) {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { 'Accept-Encoding': encoding } }, (res) => {
      let bytes = 0;
      res.on('data', (chunk) => (bytes += chunk.length));
      res.on('end', () =>
        res.statusCode === 200
          ? resolve({ bytes, encoding: res.headers['content-encoding'] ?? 'identity' })
          : reject(new Error(`${path}: ${res.statusCode}`)),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

async function main() {
  ensureBuilt();
  const dir = mkdtempSync(join(tmpdir(), 'bench-compression-'));
  const port = await freePort();
  const child = startNode([...START_FLAGS, 'dist/main.js'], {
    ...EMBEDDED,
    ...closedRegisters(),
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: join(dir, 'data'),
    RATE_LIMIT_ALLOWLIST: '127.0.0.1',
    LOG_LEVEL: 'warn',
  });
  try {
    await waitFor(`http://127.0.0.1:${port}/health/live`, 120_000);
    console.log('Compressed answers: bytes on the wire, and what compressing costs the api (embedded, loopback)');
    console.log(
      `${'what a browser loads'.padEnd(44)} ${'identity'.padStart(10)} ${'gzip'.padStart(10)} ${'br'.padStart(10)}`,
    );
    const sets = [
      ['/docs (Swagger UI + OpenAPI document)', DOCS],
      ['/ (search page + register list)', SEARCH_PAGE],
      ['a search answer (bundled sample)', [SEARCH]],
    ];
    const figures = {};
    for (const [label, paths] of sets) {
      const sums = {};
      for (const encoding of ['identity', 'gzip', 'br']) {
        sums[encoding] = 0;
        for (const path of paths) sums[encoding] += (await wireBytes(port, path, encoding)).bytes;
      }
      figures[label] = sums;
      const kb = (n) => `${(n / 1024).toFixed(1)} kB`.padStart(10);
      console.log(
        `${label.padEnd(44)} ${kb(sums.identity)} ${kb(sums.gzip)} ${kb(sums.br)}  (gzip ${(sums.gzip / sums.identity).toFixed(2)} of identity)`,
      );
    }

    console.log('');
    console.log(HEADER);
    const load = async (title, path, encoding) =>
      cannon(title, {
        url: `http://127.0.0.1:${port}${path}`,
        duration: SECONDS,
        headers: encoding ? { 'accept-encoding': encoding } : {},
      });
    // Warm-up: the first seconds of a fresh process are not the steady state.
    await load('warm-up', SEARCH);
    // Rounds alternating which goes first, so that a drift of the machine falls on both; the
    // figure is the median of the rounds' ratios.
    const results = [];
    for (const [name, path] of [
      ['GET /registers (6 KB)', '/api/public/v1/registers'],
      ['GET /search (sample, 2 KB)', SEARCH],
      ['GET /status (55 KB)', '/api/public/v1/status'],
    ]) {
      const ratios = [];
      const runs = { plain: [], gzip: [] };
      for (let round = 0; round < ROUNDS; round++) {
        const order = round % 2 === 0 ? ['plain', 'gzip'] : ['gzip', 'plain'];
        const got = {};
        for (const which of order)
          got[which] = await load(
            which === 'plain' ? `${name}, identity` : `${name}, asks gzip`,
            path,
            which === 'gzip' ? 'gzip' : undefined,
          );
        runs.plain.push(got.plain);
        runs.gzip.push(got.gzip);
        ratios.push(got.gzip.rps / got.plain.rps);
      }
      const mid = (list) => list.slice().sort((a, b) => a.rps - b.rps)[Math.floor(list.length / 2)];
      console.log(row(`${name}, identity`, mid(runs.plain)));
      console.log(row(`${name}, asks gzip`, mid(runs.gzip)));
      results.push({ name, ratio: median(ratios) });
    }
    const docs = figures['/docs (Swagger UI + OpenAPI document)'];
    console.log(
      JSON.stringify({
        docsBytesIdentity: docs.identity,
        docsBytesGzip: docs.gzip,
        docsGzipShare: Number((docs.gzip / docs.identity).toFixed(3)),
        registersGzipThroughputShare: Number(results[0].ratio.toFixed(3)),
        searchGzipThroughputShare: Number(results[1].ratio.toFixed(3)),
        statusGzipThroughputShare: Number(results[2].ratio.toFixed(3)),
      }),
    );
  } finally {
    await stop(child);
    rmSync(dir, { recursive: true, force: true });
  }
}

module.exports = { main };
if (require.main === module)
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
