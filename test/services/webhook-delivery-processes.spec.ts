import { testSecretBox } from '../support/secrets';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Bull from 'bull';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { Clock } from '../../src/platform/clock';
import { AppConfig } from '../../src/platform/config/app-config';
import { BullJobQueue } from '../../src/platform/jobs/bull-job-queue';
import { DATABASE_SCHEMA } from '../../src/app/database-schema';
import { QUEUES } from '../../src/app/queues';
import { buildDataSourceOptions } from '../../src/platform/database/data-source-options';
import { AccountGate } from '../../src/events/accounts/account-gate.service';
import { AccountStore } from '../../src/events/accounts/account-store';
import { DeliveryLogStore } from '../../src/events/webhooks/delivery/delivery-log-store';
import { DeliveryQueue } from '../../src/events/webhooks/delivery/delivery-queue.service';
import { EndpointStore } from '../../src/events/webhooks/endpoints/endpoint-store';
import { CompanyChangeData } from '../../src/events/webhooks/events/envelope';
import { EventPublisher } from '../../src/events/webhooks/events/event-publisher.service';
import { EventStore } from '../../src/events/webhooks/events/event-store';
import { createTestPostgresDatabase, HAS_SERVICES } from '../support/database';
import { call, eventually } from '../support/event-side';
import { runProcess, startProcess, Started, waitForHttp } from '../support/processes';
import { unreachableRegisters } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';
import { testRedisPrefix } from '../support/redis-keys';

jest.setTimeout(180_000);

const data = (n: number): CompanyChangeData => ({
  entity_id: `ent_no_${900000000 + n}`,
  country: 'NO',
  company_name: `COMPANY ${n} AS`,
  registration_number: String(900000000 + n),
  register: { name: 'Enhetsregisteret', official_url: 'https://www.brreg.no' },
  change: { field: 'name', previous: `OLD ${n} AS`, current: `COMPANY ${n} AS`, observed_at: new Date().toISOString() },
  provenance: {
    source_mode: 'live',
    source_url: `https://virksomhet.brreg.no/nb/oppslag/enheter/${900000000 + n}`,
    retrieved_at: new Date().toISOString(),
  },
});

/** Delivery settings of every process here: short timeout and lease, fast retries and sweeps. */
const DELIVERY_ENV = {
  WEBHOOK_TARGET_ALLOWLIST: '127.0.0.1/32',
  WEBHOOK_TIMEOUT_MS: '2000',
  WEBHOOK_RETRY_SCHEDULE: '1s,1s,1s,1s,1s',
  WEBHOOK_ENDPOINT_CONCURRENCY: '4',
  DELIVERY_SWEEP_INTERVAL_MS: '500',
  LOG_LEVEL: 'debug',
};

const suite = HAS_SERVICES ? describe : describe.skip;

/** api and worker processes on one Postgres and one Redis, as deployed; the test emits events as detection will. */
suite('webhook delivery across processes (Postgres + Bull)', () => {
  let db: { url: string; drop: () => Promise<void> };
  /** The processes' Bull queues and locks, deleted with the database. */
  const redis = testRedisPrefix('rlwh');
  let env: Record<string, string>;
  let api: Started;
  const workers: Started[] = [];
  let receiver: WebhookReceiver;
  let dataSource: DataSource;
  let publisher: EventPublisher;
  let queues: Bull.Queue[];
  let accountId: string;
  const endpointIds: string[] = [];

  beforeAll(async () => {
    db = await createTestPostgresDatabase('rl_webhooks');
    env = {
      ...unreachableRegisters(),
      ...DELIVERY_ENV,
      DATABASE_URL: db.url,
      REDIS_URL: process.env.REDIS_URL!,
      REDIS_KEY_PREFIX: redis.prefix,
      MIGRATE_ON_BOOT: 'false',
    };
    expect((await runProcess('cli/migrate.js', [], env)).code).toBe(0);
    api = startProcess('main.js', ['--role=api'], { ...env, PORT: '3431', HOST: '127.0.0.1' });
    await waitForHttp('http://127.0.0.1:3431/health/ready', api);

    // A customer with live delivery (approved with the admin command) and four endpoints on one receiver.
    receiver = await new WebhookReceiver().start();
    const signup = await call('http://127.0.0.1:3431', 'POST', '/api/v1/accounts', {
      body: { email: 'ops@example.com' },
    });
    accountId = signup.body.account.id;
    const key = signup.body.apiKey;
    for (const path of ['a', 'b', 'c', 'd']) {
      const ep = await call('http://127.0.0.1:3431', 'POST', '/api/v1/webhook-endpoints', {
        key,
        body: { url: `${receiver.url}/${path}` },
      });
      endpointIds.push(ep.body.id);
      receiver.secrets.push(ep.body.secret);
    }
    const request = await call('http://127.0.0.1:3431', 'POST', '/api/v1/access-requests', {
      key,
      body: {
        countries: ['NO'],
        monthlyVolume: 10_000,
        events: ['company.name_changed'],
        useCase: 'Multi-process delivery test.',
      },
    });
    const approved = await runProcess('cli/admin.js', ['access-requests', 'approve', request.body.id], env);
    expect(approved).toMatchObject({ code: 0, output: expect.stringContaining(`approved ${request.body.id}`) });

    // The publisher as detection will use it, from this process.
    const config = AppConfig.fromEnv(env, 'worker');
    dataSource = await new DataSource(buildDataSourceOptions(config, DATABASE_SCHEMA)).initialize();
    queues = ['probe', 'delivery'].map(
      (name) => new Bull(name, { redis: env.REDIS_URL, prefix: env.REDIS_KEY_PREFIX }),
    );
    const jobs = new BullJobQueue(
      new Map([
        ['probe', queues[0]],
        ['delivery', queues[1]],
      ]) as never,
      QUEUES,
    );
    publisher = new EventPublisher(
      dataSource,
      new AccountGate(new AccountStore()),
      new EndpointStore(dataSource, testSecretBox()),
      new EventStore(dataSource),
      new DeliveryLogStore(dataSource),
      new DeliveryQueue(jobs),
      new Clock(),
      config,
    );
  });

  afterAll(async () => {
    await Promise.all([api, ...workers].map((p) => p?.stop()));
    await Promise.all((queues ?? []).map((q) => q.close()));
    await dataSource?.destroy();
    await receiver?.stop();
    await db?.drop();
    await redis.drop();
  });

  async function sql<T>(text: string, params: unknown[] = []): Promise<T[]> {
    const client = new Client({ connectionString: db.url });
    await client.connect();
    try {
      return (await client.query(text, params)).rows as T[];
    } finally {
      await client.end();
    }
  }

  /** n events, each to the four endpoints; returns the delivery ids. */
  async function publish(n: number, from: number): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const p = await publisher.publishAndWake({
        accountId,
        kind: 'company.name_changed',
        isTest: false,
        data: data(from + i),
      });
      ids.push(...p.deliveries.map((d) => d.id));
    }
    return ids;
  }

  const states = (ids: string[]) =>
    sql<{ state: string; n: number }>(
      `SELECT state, count(*)::int AS n FROM delivery WHERE id = ANY($1) GROUP BY state`,
      [ids],
    ).then((rows) => Object.fromEntries(rows.map((r) => [r.state, r.n])));

  /** Starts a worker and resolves once it says it is ready: on a loaded machine a start takes seconds. */
  async function startWorker(): Promise<Started> {
    const worker = startProcess('worker.js', [], env);
    workers.push(worker);
    await eventually(
      () => Promise.resolve(worker.output()),
      (out) => /worker ready/.test(out),
      60_000,
      100,
    );
    return worker;
  }

  it('two workers deliver 200 deliveries, each attempt made once', async () => {
    receiver.answerWith(() => ({ status: 200, delayMs: 10 }));
    await Promise.all([startWorker(), startWorker()]);
    try {
      await twoWorkersDeliver();
    } finally {
      await Promise.all(workers.splice(0).map((w) => w.stop()));
    }
  });

  async function twoWorkersDeliver(): Promise<void> {
    const ids = await publish(50, 0);
    expect(ids).toHaveLength(200);
    await eventually(
      () => states(ids),
      (s) => s.succeeded === 200,
      60_000,
      250,
    );
    await new Promise((r) => setTimeout(r, 1_000)); // nothing more arrives

    expect(receiver.requests).toHaveLength(200);
    expect(receiver.requests.every((r) => r.verified === true)).toBe(true);
    expect(new Set(receiver.requests.map((r) => r.headers['webhook-id'])).size).toBe(200);
    expect(receiver.maxInFlight).toBeLessThanOrEqual(16); // four endpoints, four in flight each
    const [attempts] = await sql<{ tries: number; rows: number; extra: number }>(
      `SELECT sum(d.attempt_count)::int AS tries, (SELECT count(*)::int FROM delivery_attempt a WHERE a.delivery_id = ANY($1)) AS rows,
              count(*) FILTER (WHERE d.attempt_count <> 1)::int AS extra
       FROM delivery d WHERE d.id = ANY($1)`,
      [ids],
    );
    expect(attempts).toEqual({ tries: 200, rows: 200, extra: 0 });
    // Both workers took part.
    for (const w of workers) expect((w.output().match(/delivery dlv_\w+ attempt 1/g) ?? []).length).toBeGreaterThan(0);
  }

  it('a worker killed with SIGKILL mid-delivery: every delivery succeeds in the end, none lost, duplicates with the same webhook-id', async () => {
    receiver.requests.length = 0;
    // The first 16 requests (every slot of the four endpoints) never get an answer.
    receiver.answerWith((_r, i) => (i < 16 ? { hang: true } : { status: 200 }));
    const doomed = await startWorker();
    const ids = await publish(15, 1_000); // 60 deliveries
    await receiver.waitFor((r) => r.length >= 16, 20_000);
    doomed.child.kill('SIGKILL');
    await new Promise((r) => doomed.child.once('exit', r));
    await startWorker(); // the survivor

    await eventually(
      () => states(ids),
      (s) => s.succeeded === 60,
      90_000,
      500,
    );
    const messageIds = await sql<{ id: string; message_id: string; attempt_count: number }>(
      `SELECT id, message_id, attempt_count FROM delivery WHERE id = ANY($1)`,
      [ids],
    );
    const received = new Map<string, Set<string>>();
    for (const r of receiver.requests) {
      const key = `${r.url} ${r.rawBody}`; // one event to one endpoint
      received.set(key, (received.get(key) ?? new Set()).add(String(r.headers['webhook-id'])));
    }
    // None lost: every delivery's webhook-id arrived; a duplicate always carries the same webhook-id.
    expect(new Set(receiver.requests.map((r) => r.headers['webhook-id']))).toEqual(
      new Set(messageIds.map((m) => m.message_id)),
    );
    expect([...received.values()].every((set) => set.size === 1)).toBe(true);
    expect(received.size).toBe(60);
    expect(receiver.requests.length).toBeGreaterThanOrEqual(60 + 16);
    // The killed worker's attempts are in the log as abandoned; the next attempt had a new number.
    const [abandoned] = await sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM delivery_attempt WHERE delivery_id = ANY($1) AND error_class = 'abandoned'`,
      [ids],
    );
    expect(abandoned.n).toBe(16);
    expect(messageIds.filter((m) => m.attempt_count >= 2)).toHaveLength(16);
  });
});

/** The embedded default: one process owning PGlite under DATA_DIR, killed mid-delivery and started again. */
describe('webhook delivery across a restart of the embedded process', () => {
  let dir: string;
  let app: Started | undefined;
  let receiver: WebhookReceiver;
  const port = 20_000 + Math.floor(Math.random() * 10_000);
  const base = `http://127.0.0.1:${port}`;
  const start = () =>
    startProcess('main.js', [], {
      ...unreachableRegisters(),
      ...DELIVERY_ENV,
      DATA_DIR: dir,
      PORT: String(port),
      HOST: '127.0.0.1',
    });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rl-restart-'));
    receiver = await new WebhookReceiver().start();
  });
  afterAll(async () => {
    await app?.stop();
    await receiver?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('loses nothing: the deliveries in flight are made again after the restart, with the same webhook-id', async () => {
    app = start();
    await waitForHttp(`${base}/health/live`, app, 60_000);
    const signup = await call(base, 'POST', '/api/v1/accounts', { body: { email: 'restart@example.com' } });
    const key = signup.body.apiKey;
    const ep = await call(base, 'POST', '/api/v1/webhook-endpoints', { key, body: { url: `${receiver.url}/hook` } });
    receiver.secrets = [ep.body.secret];
    receiver.answerWith(() => ({ hang: true }));
    // Three test events whose first attempt hangs when the process is killed.
    const pending = ['company.name_changed', 'company.status_changed', 'register.unavailable'].map((event) =>
      call(base, 'POST', '/api/v1/simulator/events', { key, body: { event, endpointId: ep.body.id } }).catch(
        () => null,
      ),
    );
    await receiver.waitFor((r) => r.length === 3);
    app.child.kill('SIGKILL');
    await new Promise((r) => app!.child.once('exit', r));
    await Promise.all(pending);

    receiver.answerWith(() => ({ status: 200 }));
    app = start();
    await waitForHttp(`${base}/health/live`, app, 60_000);
    const events = (await call(base, 'GET', '/api/v1/events', { key })).body.data as Array<{ id: string }>;
    expect(events).toHaveLength(3);
    const deliveries = await eventually(
      async () =>
        (await call(base, 'GET', `/api/v1/webhook-endpoints/${ep.body.id}/deliveries`, { key })).body.data as Array<{
          state: string;
          webhookId: string;
          attemptCount: number;
        }>,
      (list) => list.length === 3 && list.every((d) => d.state === 'succeeded'),
      40_000,
      500,
    );
    for (const d of deliveries) {
      const got = receiver.requests.filter((r) => r.headers['webhook-id'] === d.webhookId);
      expect(got).toHaveLength(2);
      expect(got.every((r) => r.verified === true)).toBe(true);
      expect(got[0].rawBody).toBe(got[1].rawBody);
      expect(d.attemptCount).toBe(2);
    }
  });
});
