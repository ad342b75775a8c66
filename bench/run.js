#!/usr/bin/env node
'use strict';
/*
 * `npm run bench`: every figure the issues name, in one run.
 * - foundation: /registers vs a bare NestJS handler, cold/warm start, idle RSS (embedded);
 * - MCP: tools/call search_companies vs REST /search on the fallback dataset (embedded);
 * - with DATABASE_URL: fallback name search over 5 M companies on Postgres (service vs pg,
 *   and /search throughput), and import rows/s vs psql \copy for 1 M rows.
 * Each part is also runnable alone: node bench/<part>.js.
 */
const { ensureBuilt } = require('./lib');

async function main() {
  ensureBuilt();
  process.env.BENCH_NO_BUILD = '1';
  await require('./foundation').main();
  console.log('');
  await require('./mcp').main();
  if (process.env.DATABASE_URL) {
    console.log('');
    await require('./dataset-search').main();
    console.log('');
    await require('./import').main();
  } else {
    console.log('\nDATABASE_URL not set: the Postgres benchmarks (5 M-row search, import vs psql \\copy) were skipped.');
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
