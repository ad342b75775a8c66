#!/usr/bin/env node
'use strict';
/*
 * Webhook delivery on Postgres + Bull, one worker process (dist/worker.js):
 * - deliveries per second: a backlog of BENCH_EVENTS events × BENCH_ENDPOINTS endpoints
 *   published while no worker runs, then one worker started; the rate from the first to the
 *   last delivery reaching the receiver;
 * - the raw POST rate of autocannon against the same receiver (a separate process answering
 *   200 at once), same body size, as many connections as the worker may have requests in
 *   flight (endpoints × WEBHOOK_ENDPOINT_CONCURRENCY); the ratio of the two; and, to tell the
 *   HTTP client's cost from the outbox's, the rate of the worker's own outbound client
 *   POSTing in a loop with as many requests in flight, no database, no queue;
 * - latency from the event written (the delivery row's created_at) to the receiver hit, p50
 *   and p99, at a steady BENCH_RATE events per second with the worker idle and waiting;
 * - the ceiling that CPU sets on any worker: per delivery, the CPU of the HTTP exchange at
 *   both ends (autocannon's, and the outbound client's) plus the least a delivery must write
 *   — its claim (the lease) and its record (the attempt as sent, with its outcome, and the
 *   delivery's state), measured as bare batched statements of 1,000 on the same database —
 *   spread over every core, as a share of autocannon's rate.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres REDIS_URL=redis://127.0.0.1:6379 node bench/webhooks.js
 *   (BENCH_EVENTS=1000, BENCH_ENDPOINTS=8, BENCH_RATE=25, BENCH_SECONDS, BENCH_NO_BUILD=1;
 *   BENCH_WORKER_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' to profile the worker)
 */
const { randomBytes } = require('node:crypto');
const { join } = require('node:path');
const { Client } = require('pg');
const {
  ROOT,
  cpuMs,
  ensureBuilt,
  freePort,
  waitFor,
  cannon,
  closedRegisters,
  startNode,
  stop,
  percentile,
  nameChange,
} = require('./lib');

const EVENTS = Number(process.env.BENCH_EVENTS ?? 1000);
const ENDPOINTS = Number(process.env.BENCH_ENDPOINTS ?? 8);
const RATE = Number(process.env.BENCH_RATE ?? 25);
const CONCURRENCY = 4; // WEBHOOK_ENDPOINT_CONCURRENCY, the default

/** CPU time of every Postgres process on this machine (the server the bench uses runs here), in ms. */
function postgresCpuMs() {
  const fs = require('node:fs');
  let total = 0;
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres') total += cpuMs(pid);
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

/**
 * Round trips so far, to tell per delivery what the outbox costs: SQL statements (pg_stat_statements
 * when installed, otherwise not counted), transactions of the database (pg_stat_database: each
 * autocommitted statement is one), and Redis commands (INFO commandstats: the steps of Bull's Lua
 * scripts count one each, so these are not round trips).
 */
async function traffic(dataSource, queue) {
  await dataSource.query('SELECT pg_stat_clear_snapshot()');
  const [db] = await dataSource.query(
    'SELECT (xact_commit + xact_rollback)::bigint AS n FROM pg_stat_database WHERE datname = current_database()',
  );
  let statements = NaN;
  try {
    const [st] = await dataSource.query(
      'SELECT sum(calls)::bigint AS n FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())',
    );
    statements = Number(st.n);
  } catch {
    // pg_stat_statements is not loaded on this server
  }
  const info = await queue.client.info('commandstats');
  const redis = [...info.matchAll(/calls=(\d+)/g)].reduce((sum, m) => sum + Number(m[1]), 0);
  return { transactions: Number(db.n), statements, redis };
}

async function stats(url) {
  return (await fetch(`${url}/__stats`)).json();
}

/** Deliveries received so far (polled: the receiver's full stats would cost it CPU). */
async function received(url) {
  return (await (await fetch(`${url}/__count`)).json()).count;
}

async function until(check, ms, what) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not done within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const RECORD_BATCH = 1000;

/**
 * CPU per delivery (µs, this process and Postgres) of the least a delivery must write:
 * EVENTS new events' deliveries (published, never woken) leased, then recorded as succeeded —
 * each attempt inserted with its headers and outcome, each delivery updated — RECORD_BATCH at
 * a time, a statement each.
 */
async function recordFloor(dataSource, publisher, accountId) {
  const { signatureHeader, newWebhookSecret } = require(
    join(ROOT, 'dist/events/webhooks/signing/standard-webhooks.js'),
  );
  const ids = [];
  for (let i = 0; i < EVENTS; i++) {
    const published = await dataSource.transaction((m) =>
      publisher.publish(m, {
        accountId,
        kind: 'company.name_changed',
        isTest: false,
        data: nameChange(10_000_000 + i),
      }),
    );
    ids.push(...published.deliveries.map((d) => d.id));
  }
  const pg = new Client({ connectionString: dataSource.options.url });
  await pg.connect();
  try {
    await pg.query('SET synchronous_commit = off');
    const rows = (
      await pg.query(
        'SELECT d.id, d.message_id, e.body FROM delivery d JOIN event e ON e.id = d.event_id WHERE d.id = ANY($1)',
        [ids],
      )
    ).rows;
    const secret = newWebhookSecret();
    const batches = [];
    for (let i = 0; i < rows.length; i += RECORD_BATCH) batches.push(rows.slice(i, i + RECORD_BATCH));
    /** CPU per delivery (µs) of this process and of Postgres while `step` runs for every batch. */
    const measure = async (step) => {
      const cpu = process.cpuUsage();
      const pgBefore = postgresCpuMs();
      for (const batch of batches) await step(batch);
      const used = process.cpuUsage(cpu);
      return {
        nodeUs: (used.user + used.system) / rows.length,
        postgresUs: ((postgresCpuMs() - pgBefore) * 1000) / rows.length,
      };
    };
    // The claim: the lease that keeps two workers from making the same attempt.
    const claim = await measure((batch) =>
      pg.query({
        name: 'claim_floor',
        text: `UPDATE delivery d SET attempt_count = d.attempt_count + 1, locked_until = now() + interval '20 seconds', last_attempt_at = now()
               WHERE d.id = ANY($1) AND d.state = 'pending' AND (d.locked_until IS NULL OR d.locked_until <= now()) RETURNING d.id, d.attempt_count`,
        values: [batch.map((r) => r.id)],
      }),
    );
    // The record: the attempt as sent (signed headers) with its outcome, and the delivery's state.
    const record = await measure((batch) => {
      const ts = Math.floor(Date.now() / 1000);
      const headers = batch.map((r) =>
        JSON.stringify({
          'Content-Type': 'application/json',
          'Content-Length': String(Buffer.byteLength(r.body)),
          'webhook-id': r.message_id,
          'webhook-timestamp': String(ts),
          'webhook-signature': signatureHeader([secret], r.message_id, ts, r.body),
          'X-Service-Event': 'company.name_changed',
        }),
      );
      return pg.query({
        name: 'record_floor',
        text: `WITH a AS (INSERT INTO delivery_attempt (delivery_id, attempt_number, url, request_headers, started_at, finished_at, duration_ms, response_status, response_body)
                 SELECT u.id, 1, 'http://127.0.0.1/hook', u.h, now(), now(), 1, 200, 'ok' FROM unnest($1::text[], $2::text[]) AS u(id, h))
               UPDATE delivery d SET state = 'succeeded', locked_until = NULL, next_attempt_at = NULL, completed_at = now()
               FROM unnest($1::text[]) AS u(id) WHERE d.id = u.id`,
        values: [batch.map((r) => r.id), headers],
      });
    });
    return {
      claim,
      record,
      recordUs: record.nodeUs + record.postgresUs,
      totalUs: claim.nodeUs + claim.postgresUs + record.nodeUs + record.postgresUs,
    };
  } finally {
    await pg.end();
  }
}

async function main() {
  if (!process.env.DATABASE_URL || !process.env.REDIS_URL)
    throw new Error('DATABASE_URL and REDIS_URL are required (Postgres + Bull)');
  ensureBuilt();
  const name = `rl_bench_wh_${randomBytes(3).toString('hex')}`;
  const url = new URL(process.env.DATABASE_URL);
  url.pathname = `/${name}`;
  const admin = new Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();

  const env = {
    ...closedRegisters(),
    DATABASE_URL: url.toString(),
    REDIS_URL: process.env.REDIS_URL,
    REDIS_KEY_PREFIX: `rlbench-${randomBytes(3).toString('hex')}`,
    DATASET_SEED: 'false',
    MIGRATE_ON_BOOT: 'false',
    WEBHOOK_TARGET_ALLOWLIST: '127.0.0.1/32',
    WEBHOOK_ENDPOINT_CONCURRENCY: String(CONCURRENCY),
    WEBHOOK_SECRETS_KEY: process.env.WEBHOOK_SECRETS_KEY ?? require('./lib').BENCH_SECRETS_KEY,
    LOG_LEVEL: 'warn',
  };
  let receiver;
  let worker;
  let dataSource;
  let queues = [];
  try {
    require('./lib').run(process.execPath, ['dist/cli/migrate.js'], env);
    const port = await freePort();
    const target = `http://127.0.0.1:${port}`;
    receiver = startNode(['bench/webhook-receiver.js'], { PORT: String(port) });
    await waitFor(`${target}/__stats`, 10_000);

    // The publisher as detection uses it (dist/), and an account with live delivery and its endpoints.
    const { DataSource } = require('typeorm');
    const Bull = require('bull');
    const { AppConfig } = require(join(ROOT, 'dist/platform/config/app-config.js'));
    const { buildDataSourceOptions } = require(join(ROOT, 'dist/platform/database/data-source-options.js'));
    const { DATABASE_SCHEMA } = require(join(ROOT, 'dist/app/database-schema.js'));
    const { BullJobQueue } = require(join(ROOT, 'dist/platform/jobs/bull-job-queue.js'));
    const { DeliveryQueue } = require(join(ROOT, 'dist/events/webhooks/delivery/delivery-queue.service.js'));
    const { EventPublisher } = require(join(ROOT, 'dist/events/webhooks/events/event-publisher.service.js'));
    const { DeliveryLogStore } = require(join(ROOT, 'dist/events/webhooks/delivery/delivery-log-store.js'));
    const { EventStore } = require(join(ROOT, 'dist/events/webhooks/events/event-store.js'));
    const { EndpointStore } = require(join(ROOT, 'dist/events/webhooks/endpoints/endpoint-store.js'));
    const { AccountGate } = require(join(ROOT, 'dist/events/accounts/account-gate.service.js'));
    const { AccountStore } = require(join(ROOT, 'dist/events/accounts/account-store.js'));
    const { SecretBox, parseSecretsKey } = require(join(ROOT, 'dist/platform/crypto/secret-box.js'));
    const { Clock } = require(join(ROOT, 'dist/platform/clock.js'));
    const { newWebhookSecret } = require(join(ROOT, 'dist/events/webhooks/signing/standard-webhooks.js'));
    const { randomId } = require(join(ROOT, 'dist/platform/ids.js'));
    const config = AppConfig.fromEnv(env, 'worker');
    dataSource = await new DataSource(buildDataSourceOptions(config, DATABASE_SCHEMA)).initialize();
    queues = ['probe', 'delivery'].map((q) => new Bull(q, { redis: env.REDIS_URL, prefix: env.REDIS_KEY_PREFIX }));
    const box = new SecretBox(parseSecretsKey(env.WEBHOOK_SECRETS_KEY));
    const publisher = new EventPublisher(
      dataSource,
      new AccountGate(new AccountStore()),
      new EndpointStore(dataSource, box),
      new EventStore(dataSource),
      new DeliveryLogStore(dataSource),
      new DeliveryQueue(
        new BullJobQueue(
          new Map([
            ['probe', queues[0]],
            ['delivery', queues[1]],
          ]),
          require(join(ROOT, 'dist/app/queues.js')).QUEUES,
        ),
      ),
      new Clock(),
      config,
    );
    const accountId = randomId('acct');
    await dataSource.query(
      `INSERT INTO account (id, email, created_at, live_delivery_since) VALUES ($1, 'bench@example.com', now(), now())`,
      [accountId],
    );
    for (let i = 0; i < ENDPOINTS; i++) {
      await dataSource.query(
        `INSERT INTO webhook_endpoint (id, account_id, url, events, secret, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, now(), now())`,
        [randomId('we'), accountId, `${target}/hook/${i}`, ['company.name_changed'], box.seal(newWebhookSecret())],
      );
    }
    const publish = (i) =>
      publisher.publishAndWake({ accountId, kind: 'company.name_changed', isTest: false, data: nameChange(i) });

    // 1. Throughput: a backlog, then one worker.
    const total = EVENTS * ENDPOINTS;
    const t0 = Date.now();
    for (let i = 0; i < EVENTS; i++) await publish(i);
    const publishMs = Date.now() - t0;
    worker = startNode(
      [...(process.env.BENCH_WORKER_NODE_ARGS ?? '').split(' ').filter(Boolean), 'dist/worker.js'],
      env,
    );
    await until(async () => (await received(target)) >= 1, 60_000, 'worker start');
    const cpuBefore = cpuMs(worker.pid);
    const pgCpuBefore = postgresCpuMs();
    const trafficBefore = await traffic(dataSource, queues[1]);
    await until(async () => (await received(target)) >= total, 300_000, 'backlog delivery');
    const workerCpuMs = cpuMs(worker.pid) - cpuBefore;
    const pgCpuMs = postgresCpuMs() - pgCpuBefore;
    // An idle backend reports its transactions to pg_stat_database within 10 s (PGSTAT_IDLE_INTERVAL).
    await new Promise((r) => setTimeout(r, 11_000));
    const trafficAfter = await traffic(dataSource, queues[1]);
    const hits = Object.values((await stats(target)).hits).sort((a, b) => a - b);
    const seconds = (hits[hits.length - 1] - hits[0]) / 1000;
    const deliveryRate = (hits.length - 1) / seconds;

    // 2. Latency: a steady rate with the worker waiting.
    await fetch(`${target}/__reset`, { method: 'POST' });
    const steadySeconds = Number(process.env.BENCH_SECONDS ?? 10);
    const ids = [];
    const start = Date.now();
    for (let i = 0; i < RATE * steadySeconds; i++) {
      const due = start + (i * 1000) / RATE;
      if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
      ids.push(...(await publish(EVENTS + i)).deliveries.map((d) => d.id));
    }
    await until(async () => (await received(target)) >= ids.length, 60_000, 'steady delivery');
    const steadyHits = (await stats(target)).hits;
    const rows = await dataSource.query(`SELECT message_id, created_at FROM delivery WHERE id = ANY($1)`, [ids]);
    const latencies = rows
      .map((r) => steadyHits[r.message_id] - new Date(r.created_at).getTime())
      .sort((a, b) => a - b);
    const [dup] = await dataSource.query(`SELECT count(*)::int AS n FROM delivery WHERE attempt_count <> 1`);

    // 3. The receiver's raw POST rate, same body size, as many connections as requests in flight.
    const sample = (await dataSource.query(`SELECT body FROM event LIMIT 1`))[0].body;
    /** From now: a call with the requests made meanwhile gives the CPU per request (µs) of this process and the receiver together. */
    const exchangeMeter = () => {
      const self = process.cpuUsage();
      const receiverBefore = cpuMs(receiver.pid);
      return (requests) => {
        const used = process.cpuUsage(self);
        return (((used.user + used.system) / 1000 + cpuMs(receiver.pid) - receiverBefore) * 1000) / requests;
      };
    };
    const cannonCpu = exchangeMeter();
    const raw = await cannon('autocannon POST, same receiver', {
      url: `${target}/hook/raw`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: sample,
      connections: ENDPOINTS * CONCURRENCY,
    });
    // CPU of both ends per request (µs): autocannon's exchange, the cheapest there is in Node.
    const exchangeCpuUs = cannonCpu(raw.total);

    // 4. The outbound client alone (guard, keep-alive, body cap), same concurrency, no database, no queue.
    const { OutboundHttpClient } = require(join(ROOT, 'dist/events/webhooks/outbound/outbound-http-client.js'));
    const { AddressGuard } = require(join(ROOT, 'dist/events/webhooks/outbound/address-guard.js'));
    const { DnsResolver } = require(join(ROOT, 'dist/events/webhooks/outbound/dns-resolver.js'));
    const client = new OutboundHttpClient(
      new AddressGuard(config.webhooks.targetAllowlist),
      new DnsResolver(),
      'bench',
    );
    let posted = 0;
    const clientCpu = exchangeMeter();
    const clientEnd = Date.now() + steadySeconds * 1000;
    await Promise.all(
      Array.from({ length: ENDPOINTS * CONCURRENCY }, async () => {
        while (Date.now() < clientEnd) {
          await client.post({
            url: `${target}/hook/client`,
            headers: { 'content-type': 'application/json' },
            body: sample,
            timeoutMs: 15_000,
          });
          posted++;
        }
      }),
    );
    const clientExchangeCpuUs = clientCpu(posted);
    client.close();
    const clientRate = posted / steadySeconds;

    // 5. The least any correct worker must write per delivery: the lease that keeps two workers
    // from making the same attempt, then the attempt with its outcome and the delivery's final
    // state — in batches of RECORD_BATCH on one connection, without waiting for the disk.
    await stop(worker);
    worker = undefined;
    const recordCpu = await recordFloor(dataSource, publisher, accountId);
    const cores = require('node:os').availableParallelism();
    const clientCeiling = (cores * 1_000_000) / (clientExchangeCpuUs + recordCpu.totalUs);

    console.log(
      `\nWebhook delivery, Postgres + Bull, one worker (${ENDPOINTS} endpoints × ${CONCURRENCY} in flight, receiver answers 200 at once)`,
    );
    console.log(
      `backlog of ${total.toLocaleString('en')} deliveries (published in ${(publishMs / 1000).toFixed(1)} s): ${deliveryRate.toFixed(0)} deliveries/s`,
    );
    console.log(
      `worker CPU per delivery: ${(workerCpuMs / total).toFixed(2)} ms; Postgres CPU per delivery (every postgres process on the machine, ended backends excepted): ${(pgCpuMs / total).toFixed(2)} ms`,
    );
    const perDelivery = (k) => ((trafficAfter[k] - trafficBefore[k]) / total).toFixed(1);
    const statements = Number.isNaN(trafficAfter.statements) ? '' : `${perDelivery('statements')} SQL statements, `;
    console.log(
      `round trips per delivery (the backlog; every client of the database and of Redis): ${statements}${perDelivery('transactions')} database transactions, ${perDelivery('redis')} Redis commands (Lua script steps included)`,
    );
    console.log(
      `autocannon POST to the same receiver (${ENDPOINTS * CONCURRENCY} connections): ${raw.rps.toFixed(0)} req/s`,
    );
    console.log(`deliveries ÷ raw POST rate: ${(deliveryRate / raw.rps).toFixed(2)}`);
    console.log(
      `the worker's outbound client alone (no database, no queue): ${clientRate.toFixed(0)} POST/s (deliveries ÷ that: ${(deliveryRate / clientRate).toFixed(2)})`,
    );
    const us = (x) => `${x.nodeUs.toFixed(0)} µs here + ${x.postgresUs.toFixed(0)} µs in Postgres`;
    console.log(
      `CPU per request, both ends: autocannon and the receiver ${exchangeCpuUs.toFixed(0)} µs; the worker's outbound client and the receiver ${clientExchangeCpuUs.toFixed(0)} µs`,
    );
    console.log(
      `the least a delivery writes, in batches of ${RECORD_BATCH}: the claim (its lease) ${us(recordCpu.claim)}; the record (the attempt as sent, with its outcome, and the delivery's state) ${us(recordCpu.record)}`,
    );
    const ceilingOf = (httpUs, writeUs) => {
      const rate = (cores * 1_000_000) / (httpUs + writeUs);
      return `${rate.toFixed(0)} deliveries/s = ${(rate / raw.rps).toFixed(2)}`;
    };
    console.log(
      `ceiling on ${cores} cores, CPU-bound, of autocannon's rate — with the outbound client: ${ceilingOf(clientExchangeCpuUs, recordCpu.totalUs)}; with the record alone (no lease): ${ceilingOf(clientExchangeCpuUs, recordCpu.recordUs)}`,
    );
    console.log(
      `  were the HTTP as cheap as autocannon's: ${ceilingOf(exchangeCpuUs, recordCpu.totalUs)}; record alone: ${ceilingOf(exchangeCpuUs, recordCpu.recordUs)}`,
    );
    // autocannon's measured rate moves with more than CPU (at 32 connections it is not always CPU-bound): the same ceiling as CPU against CPU.
    console.log(
      `  by CPU alone (autocannon's exchange ÷ the worker's least per delivery), steadier from run to run: ${(exchangeCpuUs / (clientExchangeCpuUs + recordCpu.totalUs)).toFixed(2)} with the outbound client, ${(exchangeCpuUs / (exchangeCpuUs + recordCpu.totalUs)).toFixed(2)} were the HTTP as cheap as autocannon's`,
    );
    console.log(
      `event written → receiver hit at ${RATE} events/s (${ids.length} deliveries): p50 ${percentile(latencies, 50)} ms, p99 ${percentile(latencies, 99)} ms`,
    );
    console.log(`deliveries attempted more than once: ${dup.n}`);
    return {
      deliveryRate,
      rawRate: raw.rps,
      clientRate,
      ratio: deliveryRate / raw.rps,
      ceilingRatio: clientCeiling / raw.rps,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
    };
  } finally {
    await stop(worker);
    await stop(receiver);
    await require('./lib').dropBenchState({ queues, dataSource, database: name, redisPrefix: env.REDIS_KEY_PREFIX });
  }
}

module.exports = { main };

if (require.main === module) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
