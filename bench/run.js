#!/usr/bin/env node
'use strict';
/*
 * `npm run bench`: every figure the issues name, in one run.
 * - foundation: /registers vs a bare NestJS handler, cold/warm start, idle RSS (embedded);
 * - metrics: /registers throughput with METRICS_PORT set (and scraped) vs unset (embedded);
 * - lookup: GET /companies/GB/{number} from the fallback dataset against its SQL through the same
 *   driver (embedded; and Postgres with DATABASE_URL);
 * - MCP: tools/call search_companies vs REST /search on the fallback dataset (embedded);
 * - hardening: /registers with Redis down vs without Redis; 200 concurrent searches with the
 *   registers unreachable (breaker) vs a paused register (dataset only);
 * - compression: bytes of /docs, the search page and a search answer, identity vs gzip and br;
 *   /registers and /search throughput with and without Accept-Encoding: gzip (embedded);
 * - with DATABASE_URL: issue 12 at national scale (bench/national-scale.js): realistic bulk
 *   files of 5 M GB and 1 M NO companies imported against psql \copy of the same files, the
 *   search query classes through HTTP (p50 / p99 / found-rate), a lookup by number against its
 *   SQL, the embedded start and memory.
 * - with DATABASE_URL and REDIS_URL: webhook deliveries per second of one worker on
 *   Postgres + Bull vs autocannon's raw POST rate to the same receiver, and the latency from
 *   event written to receiver hit.
 * - with DATABASE_URL and REDIS_URL: change detection over 100,000 watches (register calls
 *   per cycle per register, time to the change events), one and two workers on Bull.
 * Each part is also runnable alone: node bench/<part>.js.
 */
const { ensureBuilt } = require('./lib');

async function main() {
  ensureBuilt();
  process.env.BENCH_NO_BUILD = '1';
  await require('./foundation').main();
  console.log('');
  await require('./metrics').main();
  console.log('');
  await require('./lookup').main();
  console.log('');
  await require('./mcp').main();
  console.log('');
  await require('./hardening').main();
  console.log('');
  await require('./compression').main();
  if (process.env.DATABASE_URL) {
    console.log('');
    await require('./national-scale').main();
  } else {
    console.log(
      '\nDATABASE_URL not set: the Postgres benchmark (national scale: import vs psql \\copy, search classes) was skipped.',
    );
  }
  if (process.env.DATABASE_URL && process.env.REDIS_URL) {
    console.log('');
    await require('./webhooks').main();
    console.log('');
    await require('./delivery-scale').main();
    console.log('');
    await require('./detection').main();
  } else {
    console.log(
      '\nDATABASE_URL and REDIS_URL not both set: the webhook delivery and detection benchmarks (Postgres + Bull) were skipped.',
    );
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
