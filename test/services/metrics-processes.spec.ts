import { createTestPostgresDatabase, HAS_SERVICES } from '../support/database';
import { eventually, signUp } from '../support/event-side';
import { FakeRegisters, startFakeRegisters } from '../support/fake-registers';
import { freePort, runProcess, startProcess, Started, waitForHttp } from '../support/processes';
import {
  hasPromtool,
  labelNamesOf,
  listeningPorts,
  MetricsPage,
  parseMetricsPage,
  promtool,
  samplesOf,
  SERVICE_FAMILIES,
  UNBOUNDED_VALUE,
} from '../support/prometheus';
import { unreachableRegisters } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';
import { testRedisPrefix } from '../support/redis-keys';

jest.setTimeout(240_000);

const suite = HAS_SERVICES ? describe : describe.skip;

/** The families each role serves: the api has no worker's, the worker no HTTP's. */
const API_FAMILIES = [
  'http_request_duration_seconds',
  'job_queue_depth',
  'webhook_delivery_attempts_total',
  'webhook_delivery_lag_seconds',
  'webhook_deliveries_failed_total',
  'webhook_endpoints_disabled_total',
  'register_state',
  'register_probe_duration_seconds',
  'detection_checks_total',
  'detection_changes_total',
  'database_clock_offset_seconds',
];
const WORKER_FAMILIES = [
  ...API_FAMILIES.filter((f) => f !== 'http_request_duration_seconds'),
  'detection_feed_cursor_age_seconds',
];

/**
 * The api and a worker started for real as operators run them (Postgres, Bull on Redis), each
 * with METRICS_PORT: a request and a test event from the simulator (its first attempt made by
 * the api and answered 500, its retry made by the worker and answered 200), the worker's
 * probes at boot; then both pages are scraped and checked with promtool.
 */
suite('metrics of the api and worker processes (Postgres + Bull)', () => {
  let db: { url: string; drop: () => Promise<void> };
  /** The processes' Bull queues and locks, deleted with the database. */
  const redis = testRedisPrefix('rlmx');
  let fakes: FakeRegisters;
  let receiver: WebhookReceiver;
  let api: Started;
  let worker: Started;
  const ports = { api: 0, apiMetrics: 0, workerMetrics: 0 };

  beforeAll(async () => {
    db = await createTestPostgresDatabase('rl_metrics');
    fakes = await startFakeRegisters();
    receiver = await new WebhookReceiver().start();
    const env = {
      ...unreachableRegisters(),
      ...fakes.env,
      REGISTER_AU_GUID: 'guid',
      DATABASE_URL: db.url,
      REDIS_URL: process.env.REDIS_URL!,
      REDIS_KEY_PREFIX: redis.prefix,
      MIGRATE_ON_BOOT: 'false',
      WEBHOOK_TARGET_ALLOWLIST: '127.0.0.1/32',
      WEBHOOK_RETRY_SCHEDULE: '1s,1s',
      DELIVERY_SWEEP_INTERVAL_MS: '500',
      PROBE_INTERVAL_SECONDS: '86400',
      HOST: '127.0.0.1',
    };
    expect((await runProcess('cli/migrate.js', [], env)).code).toBe(0);
    [ports.api, ports.apiMetrics, ports.workerMetrics] = [await freePort(), await freePort(), await freePort()];
    api = startProcess('main.js', ['--role=api'], {
      ...env,
      PORT: String(ports.api),
      METRICS_PORT: String(ports.apiMetrics),
    });
    // At info: the worker says when it is ready.
    worker = startProcess('worker.js', [], { ...env, METRICS_PORT: String(ports.workerMetrics), LOG_LEVEL: 'info' });
    await waitForHttp(`http://127.0.0.1:${ports.api}/health/ready`, api, 60_000);
    await eventually(
      () => Promise.resolve(worker.output()),
      (out) => /worker ready/.test(out),
      60_000,
      100,
    );
  });
  afterAll(async () => {
    await Promise.all([api?.stop(), worker?.stop()]);
    await receiver?.stop();
    await fakes?.stop();
    await db?.drop();
    await redis.drop();
  });

  const scrape = async (port: number): Promise<{ text: string; page: MetricsPage }> => {
    const res = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(res.status).toBe(200);
    const text = await res.text();
    return { text, page: parseMetricsPage(text) };
  };
  const value = (page: MetricsPage, name: string, labels: Record<string, string>): number =>
    page.samples
      .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
      .reduce((n, s) => n + s.value, 0);

  function expectFamilies(page: MetricsPage, families: string[]): void {
    const own = [...page.types.keys()].filter((f) => f in SERVICE_FAMILIES).sort();
    expect(own).toEqual([...families].sort());
    for (const family of families) {
      expect([family, page.types.get(family)]).toEqual([family, SERVICE_FAMILIES[family].type]);
      const labels = labelNamesOf(page, family);
      // A family without samples yet (no change found, no feed) has no labels to show.
      if (labels.length) expect([family, labels]).toEqual([family, SERVICE_FAMILIES[family].labels]);
    }
    for (const s of page.samples.filter((s) => !/^(process|nodejs)_/.test(s.name)))
      for (const v of Object.values(s.labels))
        expect([s.name, v]).not.toEqual([s.name, expect.stringMatching(UNBOUNDED_VALUE)]);
  }

  it('each role serves its families on METRICS_PORT only; promtool accepts both pages', async () => {
    expect((await fetch(`http://127.0.0.1:${ports.api}/api/public/v1/registers`)).status).toBe(200);
    receiver.answerWith((_req, i) => (i === 0 ? { status: 500, body: 'not yet' } : { status: 200, body: 'ok' }));
    const customer = await signUp(`http://127.0.0.1:${ports.api}`);
    const endpoint = await customer.call('POST', '/api/v1/webhook-endpoints', { url: `${receiver.url}/hook` });
    expect(endpoint.status).toBe(201);
    receiver.secrets = [endpoint.body.secret];
    const sent = await customer.call('POST', '/api/v1/simulator/events', {
      endpointId: endpoint.body.id,
      event: 'company.name_changed',
    });
    expect(sent.body).toMatchObject({ sent: true, state: 'pending', response: { status: 500 } });
    await receiver.waitFor((r) => r.length >= 2, 30_000);
    expect(receiver.requests.map((r) => r.verified)).toEqual([true, true]);

    const workerPage = await eventually(
      () => scrape(ports.workerMetrics),
      ({ page }) =>
        value(page, 'webhook_delivery_lag_seconds_count', { attempt: 'retry' }) === 1 &&
        samplesOf(page, 'register_probe_duration_seconds').length > 0,
      60_000,
      250,
    );
    const apiPage = await eventually(
      () => scrape(ports.apiMetrics),
      ({ page }) =>
        value(page, 'webhook_delivery_attempts_total', { outcome: 'http_error' }) === 1 &&
        value(page, 'register_state', { register: 'AU', state: 'live' }) === 1,
    );
    if (hasPromtool())
      for (const { text } of [apiPage, workerPage])
        expect(promtool(['check', 'metrics'], text)).toEqual({ code: 0, output: '' });

    // The api: the requests by route, the simulator's first attempt, the queues and states it reads.
    expectFamilies(apiPage.page, API_FAMILIES);
    const count = 'http_request_duration_seconds_count';
    expect(
      value(apiPage.page, count, { method: 'GET', route: '/api/public/v1/registers', status_class: '2xx' }),
    ).toBeGreaterThanOrEqual(1);
    expect(value(apiPage.page, count, { method: 'POST', route: '/api/v1/simulator/events', status_class: '2xx' })).toBe(
      1,
    );
    expect(value(apiPage.page, 'webhook_delivery_attempts_total', { outcome: 'success' })).toBe(0);

    // The worker: no HTTP family, the retry delivered with its lag, probes, the queues read from Redis.
    expectFamilies(workerPage.page, WORKER_FAMILIES);
    expect(value(workerPage.page, 'webhook_delivery_attempts_total', { outcome: 'success' })).toBe(1);
    expect(value(workerPage.page, 'webhook_delivery_lag_seconds_sum', { attempt: 'retry' })).toBeGreaterThanOrEqual(
      0.9,
    );
    expect(value(workerPage.page, 'register_probe_duration_seconds_count', { register: 'AU', result: 'ok' })).toBe(1);
    for (const { page } of [apiPage, workerPage]) {
      // Each process's clock against Postgres's, on one host: the same within a round trip.
      expect(Math.abs(value(page, 'database_clock_offset_seconds', {}))).toBeLessThan(1);
      for (const queue of ['probe', 'delivery', 'detection-check', 'feed-poll'])
        expect(
          samplesOf(page, 'job_queue_depth')
            .filter((s) => s.labels.queue === queue)
            .map((s) => s.labels.state)
            .sort(),
        ).toEqual(['active', 'delayed', 'failed', 'waiting']);
      expect(value(page, 'register_state', { register: 'AU', state: 'live' })).toBe(1);
    }

    // Ports: the api its public one and its metrics one; the worker only METRICS_PORT.
    expect(listeningPorts(api.child.pid!)).toEqual([ports.api, ports.apiMetrics].sort((a, b) => a - b));
    expect(listeningPorts(worker.child.pid!)).toEqual([ports.workerMetrics]);
  });
});
