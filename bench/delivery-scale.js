#!/usr/bin/env node
'use strict';
/*
 * Delivery at a realistic scale, on Postgres + Bull: an api process, one worker (dist/) and
 * the receivers of delivery-scale-receiver.js (PORTS origins on loopback), with
 * BENCH_ENDPOINTS (1,000) endpoints per scenario, ten per account; an event goes to its
 * account's ten endpoints, as detection publishes them.
 *   (a) receivers answering 200 at once: a backlog published while no worker runs, then the
 *       worker: deliveries per second (first to last hit); then a steady BENCH_RATE events/s
 *       for BENCH_STEADY_SECONDS: lag, event written → receiver hit;
 *   (b) the same steady load where one endpoint in ten fails: half of them answer 500, half
 *       never answer (WEBHOOK_TIMEOUT_MS, 2 s here): the healthy endpoints' lag;
 *   (c) receivers answering after 200 ms: a backlog, deliveries per second against the bound
 *       the concurrency settings allow (worker slots ÷ 0.2 s, or endpoint slots if fewer).
 * Against, in the same run: the peer design (delivery-scale-peer.js) — one Bull job per
 * delivery, POST, INSERT the attempt — delivering a backlog of the same size to the same
 * receivers (a), with as many requests in flight as the worker. For both, the CPU a delivery
 * costs while the backlog drains: the delivering process's own, and the whole machine's
 * (Postgres, Redis and the receivers included: on one host, what the throughput is bound by).
 * Prints a table, then, last, one JSON line.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres REDIS_URL=redis://127.0.0.1:6379 BENCH_QUICK=1 node bench/delivery-scale.js
 *   (BENCH_QUICK=1: smaller backlogs and shorter steady phases, within 10 minutes; BENCH_ENDPOINTS,
 *   BENCH_RATE, BENCH_STEADY_SECONDS, BENCH_NO_BUILD=1)
 */
const { randomBytes } = require('node:crypto');
const { spawn } = require('node:child_process');
const { join } = require('node:path');
const { Client } = require('pg');
const {
  ROOT,
  ensureBuilt,
  freePort,
  waitFor,
  closedRegisters,
  startNode,
  stop,
  run,
  cpuMs,
  machineCpuMs,
  commandCpuMs,
  percentile,
  nameChange,
} = require('./lib');

const QUICK = process.env.BENCH_QUICK === '1';
const ENDPOINTS = Number(process.env.BENCH_ENDPOINTS ?? 1000);
const PER_ACCOUNT = 10;
const ACCOUNTS = Math.ceil(ENDPOINTS / PER_ACCOUNT);
const BACKLOG_EVENTS = Number(process.env.BENCH_BACKLOG_EVENTS ?? (QUICK ? 1500 : 5000));
const SLOW_EVENTS = Number(process.env.BENCH_SLOW_EVENTS ?? (QUICK ? 800 : 3000));
const RATE = Number(process.env.BENCH_RATE ?? 20);
const STEADY_SECONDS = Number(process.env.BENCH_STEADY_SECONDS ?? (QUICK ? 20 : 60));
const ENDPOINT_CONCURRENCY = 4;
const WORKER_CONCURRENCY = 128;
const TIMEOUT_MS = 2000;
const SLOW_MS = 200;
const WARMUP_SECONDS = 5;
const WORKERS = 1;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/** Progress, on stderr: the table and the JSON line are stdout's. */
const note = (text) => process.stderr.write(`delivery-scale: ${text}\n`);

async function main() {
  if (!process.env.DATABASE_URL || !process.env.REDIS_URL)
    throw new Error('DATABASE_URL and REDIS_URL are required (Postgres + Bull)');
  const startedAt = Date.now();
  ensureBuilt();
  const name = `rl_bench_ds_${randomBytes(3).toString('hex')}`;
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
    WEBHOOK_ENDPOINT_CONCURRENCY: String(ENDPOINT_CONCURRENCY),
    WEBHOOK_WORKER_CONCURRENCY: String(WORKER_CONCURRENCY),
    WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
    LOG_LEVEL: 'warn',
  };
  const children = [];
  let workers = [];
  let dataSource;
  let queues = [];
  try {
    run(process.execPath, ['dist/cli/migrate.js'], env);
    const apiPort = await freePort();
    const api = startNode(['dist/main.js', '--role=api'], { ...env, PORT: String(apiPort), HOST: '127.0.0.1' });
    children.push(api);
    await waitFor(`http://127.0.0.1:${apiPort}/health/ready`, 60_000);

    const receiver = spawn(process.execPath, ['bench/delivery-scale-receiver.js'], {
      cwd: ROOT,
      env: { ...process.env, PORTS: '50', SLOW_MS: String(SLOW_MS) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(receiver);
    const ports = await new Promise((resolve, reject) => {
      receiver.stdout.once('data', (d) => resolve(JSON.parse(String(d)).ports));
      receiver.once('exit', () => reject(new Error('the receiver stopped')));
    });
    const control = `http://127.0.0.1:${ports[0]}`;
    const count = async () => (await (await fetch(`${control}/__count`)).json()).count;
    const stats = async () => (await fetch(`${control}/__stats`)).json();
    /** Every first hit of a webhook-id, over the whole run (the receiver forgets at each reset). */
    const allHits = new Map();
    let duplicatesWithNewId = 0;
    let maxInFlightPerEndpoint = 0;
    const reset = async () => {
      const s = await stats();
      for (const [id, at] of Object.entries(s.hits)) if (!allHits.has(id)) allHits.set(id, at);
      duplicatesWithNewId += s.duplicatesWithNewId;
      maxInFlightPerEndpoint = Math.max(maxInFlightPerEndpoint, s.maxInFlightPerEndpoint);
      await fetch(`${control}/__reset`, { method: 'POST' });
      return s;
    };

    // The publisher as detection uses it, from this process (dist/).
    const { DataSource } = require('typeorm');
    const Bull = require('bull');
    const d = (p) => require(join(ROOT, 'dist', p));
    const { AppConfig } = d('platform/config/app-config.js');
    const { buildDataSourceOptions } = d('platform/database/data-source-options.js');
    const { DATABASE_SCHEMA } = d('app/database-schema.js');
    const { BullJobQueue } = d('platform/jobs/bull-job-queue.js');
    const { DeliveryQueue } = d('events/webhooks/delivery/delivery-queue.service.js');
    const { DeliveryLogStore } = d('events/webhooks/delivery/delivery-log-store.js');
    const { EventPublisher } = d('events/webhooks/events/event-publisher.service.js');
    const { EventStore } = d('events/webhooks/events/event-store.js');
    const { EndpointStore } = d('events/webhooks/endpoints/endpoint-store.js');
    const { AccountGate } = d('events/accounts/account-gate.service.js');
    const { AccountStore } = d('events/accounts/account-store.js');
    const { SecretBox, parseSecretsKey } = d('platform/crypto/secret-box.js');
    const { Clock } = d('platform/clock.js');
    const { newWebhookSecret } = d('events/webhooks/signing/standard-webhooks.js');
    const { randomId } = d('platform/ids.js');
    const { BENCH_SECRETS_KEY } = require('./lib');
    const box = new SecretBox(parseSecretsKey(process.env.WEBHOOK_SECRETS_KEY ?? BENCH_SECRETS_KEY));
    const config = AppConfig.fromEnv(env, 'worker');
    dataSource = await new DataSource(buildDataSourceOptions(config, DATABASE_SCHEMA)).initialize();
    queues = ['probe', 'delivery', 'peer'].map(
      (q) => new Bull(q, { redis: env.REDIS_URL, prefix: env.REDIS_KEY_PREFIX }),
    );
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
          d('app/queues.js').QUEUES,
        ),
      ),
      new Clock(),
      config,
    );

    /** ENDPOINTS endpoints in ACCOUNTS accounts; `mode(i)` says how endpoint i's receiver answers. */
    const secrets = new Map();
    async function scenario(label, mode) {
      const accounts = [];
      for (let a = 0; a < ACCOUNTS; a++) {
        const accountId = randomId('acct');
        accounts.push(accountId);
        await dataSource.query(
          `INSERT INTO account (id, email, created_at, live_delivery_since) VALUES ($1, $2, now(), now())`,
          [accountId, `${label}${a}@example.com`],
        );
        const rows = [];
        for (let j = 0; j < PER_ACCOUNT; j++) {
          const i = a * PER_ACCOUNT + j;
          const id = randomId('we');
          const secret = newWebhookSecret();
          const endpointUrl = `http://127.0.0.1:${ports[i % ports.length]}/${mode(i, j, a)}/${label}${i}`;
          secrets.set(id, { secret, url: endpointUrl });
          rows.push([id, accountId, endpointUrl, box.seal(secret)]);
        }
        await dataSource.query(
          `INSERT INTO webhook_endpoint (id, account_id, url, events, secret, created_at, updated_at)
           SELECT id, acct, url, ARRAY['company.name_changed'], secret, now(), now() FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS t(id, acct, url, secret)`,
          [rows.map((r) => r[0]), rows.map((r) => r[1]), rows.map((r) => r[2]), rows.map((r) => r[3])],
        );
      }
      return accounts;
    }
    const A = await scenario('a', () => 'ok');
    // One endpoint in ten fails: in every other account it answers 500, in the others it hangs.
    const B = await scenario('b', (_i, j, a) => (j === 0 ? (a % 2 === 0 ? 'fail' : 'hang') : 'ok'));
    const C = await scenario('c', () => 'slow');

    let seq = 0;
    const publish = (accounts, n) =>
      publisher.publishAndWake({
        accountId: accounts[n % accounts.length],
        kind: 'company.name_changed',
        isTest: false,
        data: nameChange(seq++),
      });
    const startWorkers = () => {
      workers = Array.from({ length: WORKERS }, () => startNode(['dist/worker.js'], env));
    };
    const stopWorkers = async () => {
      await Promise.all(workers.map((w) => stop(w)));
      workers = [];
    };
    const rateOf = (hits) => {
      const times = hits.sort((x, y) => x - y);
      return (times.length - 1) / ((times[times.length - 1] - times[0]) / 1000);
    };
    /**
     * Waits until the receivers have `total` hits; the CPU per delivery meanwhile, from the first
     * hit seen (a process's start is not counted) to the last: of `pids`, and of the whole
     * machine (Postgres, Redis, the receivers and this bench included).
     */
    async function cpuPerDelivery(pids, total, what) {
      const deadline = Date.now() + 300_000;
      // Postgres' backends are the pool's, alive through the phase: none takes its CPU time away with it.
      const snapshot = (n) => ({
        n,
        machine: machineCpuMs(),
        own: pids.reduce((sum, pid) => sum + cpuMs(pid), 0),
        postgres: commandCpuMs('postgres'),
        redis: commandCpuMs('redis-server'),
        receivers: cpuMs(receiver.pid),
      });
      let first;
      for (;;) {
        const n = await count();
        if (n > 0 && !first) first = snapshot(n);
        if (n >= total) {
          const last = snapshot(n);
          const per = (key) => ((last[key] - first[key]) * 1000) / (last.n - first.n);
          return {
            processUs: per('own'),
            postgresUs: per('postgres'),
            redisUs: per('redis'),
            receiversUs: per('receivers'),
            machineUs: per('machine'),
          };
        }
        if (Date.now() > deadline) throw new Error(`${what}: not done within 300000 ms`);
        await sleep(100);
      }
    }
    /** A backlog of `events` events to `accounts`, then the workers: deliveries per second, CPU per delivery. */
    async function backlog(accounts, events) {
      await reset();
      for (let i = 0; i < events; i++) await publish(accounts, i);
      const total = events * PER_ACCOUNT;
      startWorkers();
      note(`backlog of ${total} published; worker started`);
      const cpu = await cpuPerDelivery(
        workers.map((w) => w.pid),
        total,
        'backlog',
      );
      const s = await reset();
      await stopWorkers();
      return { total, rate: rateOf(Object.values(s.hits)), cpu };
    }
    /** RATE events/s to `accounts` for STEADY_SECONDS, workers running: lag of the healthy endpoints' deliveries. */
    async function steady(accounts, healthyMode, seconds = STEADY_SECONDS) {
      note(`steady load, ${healthyMode} receivers, ${seconds} s`);
      await reset();
      const ids = [];
      const start = Date.now();
      for (let i = 0; i < RATE * seconds; i++) {
        const due = start + (i * 1000) / RATE;
        if (due > Date.now()) await sleep(due - Date.now());
        ids.push(...(await publish(accounts, i)).deliveries.map((x) => x.id));
      }
      const rows = await dataSource.query(
        `SELECT d.message_id, d.created_at, w.url FROM delivery d JOIN webhook_endpoint w ON w.id = d.endpoint_id WHERE d.id = ANY($1)`,
        [ids],
      );
      const healthy = rows.filter((r) => r.url.includes(`/${healthyMode}/`));
      // Everything healthy arrives (or is lost) within 30 s of the last publish.
      const deadline = Date.now() + 30_000;
      let s;
      for (;;) {
        s = await stats();
        if (healthy.every((r) => r.message_id in s.hits) || Date.now() > deadline) break;
        await sleep(250);
      }
      await reset();
      const lags = healthy
        .filter((r) => r.message_id in s.hits)
        .map((r) => s.hits[r.message_id] - new Date(r.created_at).getTime())
        .sort((x, y) => x - y);
      return { deliveries: ids.length, healthy: healthy.length, p50: percentile(lags, 50), p99: percentile(lags, 99) };
    }

    // (a) throughput, then the peer design on the same receivers, same backlog size.
    const a = await backlog(A, BACKLOG_EVENTS);
    const sample = await dataSource.query(
      `SELECT d.id, d.message_id, d.endpoint_id, e.body FROM delivery d JOIN event e ON e.id = d.event_id
       WHERE d.account_id = ANY($1) ORDER BY d.created_at LIMIT $2`,
      [A, a.total],
    );
    await dataSource.query(
      `CREATE TABLE peer_attempt (id bigserial PRIMARY KEY, delivery_id text NOT NULL, status int, error text, duration_ms int, at timestamptz NOT NULL)`,
    );
    await queues[2].addBulk(
      sample.map((r) => ({
        data: {
          deliveryId: r.id,
          url: secrets.get(r.endpoint_id).url,
          messageId: r.message_id,
          body: r.body,
          secret: secrets.get(r.endpoint_id).secret,
        },
        opts: { removeOnComplete: true, removeOnFail: true },
      })),
    );
    const peer = startNode(['bench/delivery-scale-peer.js'], {
      ...env,
      PEER_CONCURRENCY: String(WORKER_CONCURRENCY * WORKERS),
      TIMEOUT_MS: String(TIMEOUT_MS),
    });
    children.push(peer);
    note('peer design started');
    const peerCpu = await cpuPerDelivery([peer.pid], a.total, 'peer backlog');
    const peerStats = await stats();
    // The peer re-sends the same webhook-ids: not duplicates of ours; its hits replace nothing.
    await fetch(`${control}/__reset`, { method: 'POST' });
    await stop(peer);
    const peerRate = rateOf(Object.values(peerStats.hits));

    // (a) and (b) lag at a steady load, one worker waiting.
    startWorkers();
    await sleep(3_000);
    // A warm-up at the same load, not measured: a fresh worker's first seconds (JIT, pools)
    // would otherwise count in (a)'s p99 and not in (b)'s, and skew isolationRatioP99.
    await steady(A, 'ok', WARMUP_SECONDS);
    const aLag = await steady(A, 'ok');
    const bLag = await steady(B, 'ok');
    await stopWorkers();
    const [circuits] = await dataSource.query(
      `SELECT count(*) FILTER (WHERE circuit_opened > 0)::int AS opened FROM webhook_endpoint WHERE account_id = ANY($1)`,
      [B],
    );

    // (c) slow receivers.
    const c = await backlog(C, SLOW_EVENTS);
    const bound = Math.min(WORKERS * WORKER_CONCURRENCY, ENDPOINTS * ENDPOINT_CONCURRENCY) / (SLOW_MS / 1000);

    // Lost: a delivery to a healthy endpoint whose webhook-id never reached its receiver.
    const healthyRows = await dataSource.query(
      `SELECT d.message_id FROM delivery d JOIN webhook_endpoint w ON w.id = d.endpoint_id WHERE w.url !~ '/(fail|hang)/'`,
    );
    const lost = healthyRows.filter((r) => !allHits.has(r.message_id)).length;
    const [{ delivered }] = await dataSource.query(
      `SELECT count(*)::int AS delivered FROM delivery WHERE state = 'succeeded'`,
    );

    const fmt = (x, digits = 0) => (Number.isFinite(x) ? x.toFixed(digits) : String(x));
    console.log(
      `\nDelivery at scale: ${ENDPOINTS} endpoints a scenario (${PER_ACCOUNT} per account), ${WORKERS} worker, ` +
        `WEBHOOK_WORKER_CONCURRENCY=${WORKER_CONCURRENCY}, WEBHOOK_ENDPOINT_CONCURRENCY=${ENDPOINT_CONCURRENCY}, WEBHOOK_TIMEOUT_MS=${TIMEOUT_MS}${QUICK ? ' (BENCH_QUICK)' : ''}`,
    );
    const rows = [
      ['(a) backlog, 200 at once', `${a.total} deliveries`, `${fmt(a.rate)} deliveries/s`],
      [
        '    peer design, same backlog',
        `${a.total} deliveries`,
        `${fmt(peerRate)} deliveries/s (× ${fmt(a.rate / peerRate, 2)})`,
      ],
      ...[
        ['(a) CPU per delivery, µs', a.cpu],
        ['    peer design', peerCpu],
      ].map(([label, cpu]) => [
        label,
        `machine ${fmt(cpu.machineUs)}`,
        `delivering process ${fmt(cpu.processUs)}, Postgres ${fmt(cpu.postgresUs)}, Redis ${fmt(cpu.redisUs)}, receivers ${fmt(cpu.receiversUs)}`,
      ]),
      [
        `(a) steady ${RATE} events/s × ${STEADY_SECONDS} s`,
        `${aLag.deliveries} deliveries`,
        `lag p50 ${fmt(aLag.p50)} ms, p99 ${fmt(aLag.p99)} ms`,
      ],
      [
        `(b) the same, 10% failing or hanging`,
        `${bLag.healthy} healthy of ${bLag.deliveries}`,
        `healthy lag p50 ${fmt(bLag.p50)} ms, p99 ${fmt(bLag.p99)} ms; ${circuits.opened} circuits opened`,
      ],
      [
        '(c) backlog, 200 ms receivers',
        `${c.total} deliveries`,
        `${fmt(c.rate)} deliveries/s of a bound of ${fmt(bound)} (${fmt(c.rate / bound, 2)})`,
      ],
      ['lost; duplicates with a new id', '', `${lost}; ${duplicatesWithNewId}`],
      ['most in flight to one endpoint', '', String(maxInFlightPerEndpoint)],
      ['run time', '', `${fmt((Date.now() - startedAt) / 1000)} s`],
    ];
    for (const r of rows) console.log(`${r[0].padEnd(40)} ${r[1].padEnd(26)} ${r[2]}`);
    const result = {
      endpoints: ENDPOINTS,
      delivered,
      deliveriesPerSecond: Math.round(a.rate),
      peerDesignPerSecond: Math.round(peerRate),
      vsPeerDesign: Number((a.rate / peerRate).toFixed(2)),
      healthyLagP50Ms: bLag.p50,
      healthyLagP99Ms: bLag.p99,
      isolationRatioP99: Number((bLag.p99 / aLag.p99).toFixed(2)),
      slowReceiversShareOfBound: Number((c.rate / bound).toFixed(2)),
      lost,
      duplicatesWithNewId,
    };
    console.log(JSON.stringify(result));
    return result;
  } finally {
    await Promise.all(workers.map((w) => stop(w)));
    for (const child of children) await stop(child);
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
