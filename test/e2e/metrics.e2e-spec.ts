import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AccessRequestAdmin } from '../../src/events/accounts/admin/access-request-admin.service';
import { Metrics } from '../../src/platform/metrics/metrics';
import { MetricsServer } from '../../src/platform/metrics/metrics-server';
import { REGISTER_STATUSES } from '../../src/status/register-status';
import { SOURCE_IDS } from '../../src/registers/source-id';
import { eventually, signUp } from '../support/event-side';
import { FakeRegisters, startFakeRegisters } from '../support/fake-registers';
import {
  hasPromtool,
  labelNamesOf,
  MetricsPage,
  parseMetricsPage,
  promtool,
  samplesOf,
  SERVICE_FAMILIES,
  UNBOUNDED_VALUE,
} from '../support/prometheus';
import { MODE, startTestApp, TestApp } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';

jest.setTimeout(180_000);

const ABN = '26154482283';
const RENAMED = 'registers/au/abr-json-abndetails-26154482283-derived-renamed-moved.jsonp';
const OPS = join(__dirname, '..', '..', 'ops');

/**
 * GET /metrics of the all-in-one process (embedded: PGlite and the in-process runner; services:
 * Postgres and Bull) after real traffic: requests, a probe, a watched company's baseline and
 * change, and the webhook delivered to a receiver on loopback. Every family has its labels,
 * no label carries an unbounded value, and promtool accepts the page.
 */
describe(`metrics of the all-in-one process (${MODE})`, () => {
  let fakes: FakeRegisters;
  let app: TestApp;
  let receiver: WebhookReceiver;
  let metricsUrl: string;

  beforeAll(async () => {
    fakes = await startFakeRegisters();
    app = await startTestApp({
      realClock: true,
      env: {
        ...fakes.env,
        METRICS_PORT: '0',
        REGISTER_AU_GUID: 'guid',
        WEBHOOK_TARGET_ALLOWLIST: '127.0.0.1/32',
        WEBHOOK_RETRY_SCHEDULE: '1s,1s',
        DELIVERY_SWEEP_INTERVAL_MS: '500',
        DETECTION_INTERVAL_SECONDS: '3',
        FEED_POLL_INTERVAL_SECONDS: '3',
        PROBE_INTERVAL_SECONDS: '86400',
      },
    });
    metricsUrl = `http://127.0.0.1:${app.get(MetricsServer).port()}/metrics`;
    receiver = await new WebhookReceiver().start();
    // The probe scheduler probes every register at boot: AU answers, so it is live.
    await eventually(
      () => fetch(`${app.url}/api/public/v1/registers?status=live`).then((r) => r.json() as Promise<any>),
      (b) => b.registers.some((r: { country: string }) => r.country === 'AU'),
    );
  });
  afterAll(async () => {
    await app?.close();
    await receiver?.stop();
    await fakes?.stop();
  });

  const scrape = async (): Promise<{ text: string; page: MetricsPage }> => {
    const res = await fetch(metricsUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    return { text, page: parseMetricsPage(text) };
  };
  const value = (page: MetricsPage, name: string, labels: Record<string, string>): number =>
    page.samples
      .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
      .reduce((n, s) => n + s.value, 0);

  it('serves every family with its labels after real traffic, and promtool accepts the page', async () => {
    const customer = await signUp(app.url);
    const filed = await customer.call('POST', '/api/v1/access-requests', {
      countries: ['AU'],
      monthlyVolume: 100,
      events: ['company.name_changed'],
      useCase: 'Watching our Australian suppliers.',
    });
    await app.get(AccessRequestAdmin).approve(filed.body.id);
    const endpoint = await customer.call('POST', '/api/v1/webhook-endpoints', {
      url: `${receiver.url}/hook`,
      events: ['company.name_changed'],
    });
    receiver.secrets = [endpoint.body.secret];
    const watched = await customer.call('POST', '/api/v1/watches', { country: 'AU', registrationNumber: ABN });
    expect(watched.status).toBe(201);
    fakes.AU_API.get('/json/AbnDetails.aspx', { fixture: RENAMED });
    await receiver.waitFor((r) => r.some((x) => x.body?.event === 'company.name_changed'), 60_000);
    expect((await fetch(`${app.url}/api/public/v1/registers`)).status).toBe(200);
    expect((await fetch(`${app.url}/api/public/v1/companies/AU/${ABN}`)).status).toBe(200);
    expect((await fetch(`${app.url}/no/such/${ABN}`)).status).toBe(404);

    // The delivery's outcome is written after the receiver answered: wait for the counter.
    const { text, page } = await eventually(
      scrape,
      ({ page }) => value(page, 'webhook_delivery_attempts_total', { outcome: 'success' }) >= 1,
    );
    if (hasPromtool()) expect(promtool(['check', 'metrics'], text)).toEqual({ code: 0, output: '' });

    for (const [family, { type, labels }] of Object.entries(SERVICE_FAMILIES)) {
      expect([family, page.types.get(family)]).toEqual([family, type]);
      if (family !== 'detection_feed_cursor_age_seconds')
        expect([family, labelNamesOf(page, family)]).toEqual([family, labels]);
    }
    // Node's default metrics are there too.
    expect(page.types.get('process_cpu_seconds_total')).toBe('counter');
    expect(page.types.get('nodejs_eventloop_lag_seconds')).toBe('gauge');
    for (const s of page.samples.filter((s) => !/^(process|nodejs)_/.test(s.name)))
      for (const v of Object.values(s.labels))
        expect([s.name, v]).not.toEqual([s.name, expect.stringMatching(UNBOUNDED_VALUE)]);

    // Routes are the controllers' templates; a path under none is `unmatched`.
    const count = 'http_request_duration_seconds_count';
    expect(
      value(page, count, { method: 'GET', route: '/api/public/v1/registers', status_class: '2xx' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      value(page, count, {
        method: 'GET',
        route: '/api/public/v1/companies/:country/:registrationNumber',
        status_class: '2xx',
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(value(page, count, { method: 'POST', route: '/api/v1/watches', status_class: '2xx' })).toBe(1);
    expect(value(page, count, { method: 'GET', route: 'unmatched', status_class: '4xx' })).toBe(1);

    for (const queue of ['probe', 'delivery', 'detection-check', 'feed-poll'])
      for (const state of ['waiting', 'active', 'delayed', 'failed'])
        expect(
          samplesOf(page, 'job_queue_depth').some((s) => s.labels.queue === queue && s.labels.state === state),
        ).toBe(true);

    expect(value(page, 'webhook_delivery_lag_seconds_count', { attempt: 'first' })).toBeGreaterThanOrEqual(1);
    expect(value(page, 'webhook_delivery_lag_seconds_bucket', { attempt: 'first', le: '+Inf' })).toBe(
      value(page, 'webhook_delivery_lag_seconds_count', { attempt: 'first' }),
    );

    // One-hot: each register has exactly one state at 1.
    for (const register of SOURCE_IDS) {
      const states = samplesOf(page, 'register_state').filter((s) => s.labels.register === register);
      expect(states.map((s) => s.labels.state).sort()).toEqual([...REGISTER_STATUSES].sort());
      expect(states.reduce((n, s) => n + s.value, 0)).toBe(1);
    }
    expect(value(page, 'register_state', { register: 'AU', state: 'live' })).toBe(1);
    expect(
      value(page, 'register_probe_duration_seconds_count', { register: 'AU', result: 'ok' }),
    ).toBeGreaterThanOrEqual(1);

    expect(value(page, 'detection_checks_total', { register: 'AU', outcome: 'baseline' })).toBe(1);
    expect(value(page, 'detection_checks_total', { register: 'AU', outcome: 'changed' })).toBeGreaterThanOrEqual(1);
    expect(
      value(page, 'detection_changes_total', { register: 'AU', kind: 'company.name_changed' }),
    ).toBeGreaterThanOrEqual(1);
    for (const s of samplesOf(page, 'detection_feed_cursor_age_seconds')) {
      expect(Object.keys(s.labels).sort()).toEqual(['feed', 'register']);
      expect(s.value).toBeGreaterThanOrEqual(0);
    }
    // The process and its database share this host's clock.
    expect(Math.abs(value(page, 'database_clock_offset_seconds', {}))).toBeLessThan(1);
  });

  it('serves only GET /metrics on its port, and nothing of the API', async () => {
    const base = metricsUrl.replace(/\/metrics$/, '');
    expect((await fetch(`${base}/api/public/v1/registers`)).status).toBe(404);
    expect((await fetch(metricsUrl, { method: 'POST' })).status).toBe(405);
    expect((await fetch(`${app.url}/metrics`)).status).toBe(404);
  });

  it('every metric the alert rules and the Grafana dashboard name is on the page', async () => {
    const { page } = await scrape();
    const served = new Set(page.samples.map((s) => s.name));
    for (const [family, type] of page.types) {
      served.add(family);
      if (type === 'histogram') ['_bucket', '_sum', '_count'].forEach((suffix) => served.add(family + suffix));
    }
    const expressions = [
      ...ruleExpressions(readFileSync(join(OPS, 'prometheus/alerts.yml'), 'utf8')),
      ...dashboardExpressions(JSON.parse(readFileSync(join(OPS, 'grafana/registry-lookup.json'), 'utf8'))),
    ];
    expect(expressions.length).toBeGreaterThan(5);
    const named = new Set(expressions.flatMap(metricNames));
    expect(named.size).toBeGreaterThanOrEqual(10);
    expect([...named].filter((n) => !served.has(n))).toEqual([]);
  });
});

describe(`a process whose clock is off the database's (${MODE})`, () => {
  let app: TestApp;
  beforeAll(async () => {
    // The test clock stands at 2026-11-22T12:00Z whatever the date: days off the database's.
    app = await startTestApp({ env: { METRICS_PORT: '0', PROBE_INTERVAL_SECONDS: '86400' } });
  });
  afterAll(() => app?.close());

  it('shows by how much in database_clock_offset_seconds, at each scrape', async () => {
    const read = async () => {
      const page = parseMetricsPage(
        await (await fetch(`http://127.0.0.1:${app.get(MetricsServer).port()}/metrics`)).text(),
      );
      return samplesOf(page, 'database_clock_offset_seconds')[0].value;
    };
    const expected = () => (app.clock.now().getTime() - Date.now()) / 1000;
    expect(Math.abs(expected())).toBeGreaterThan(3600);
    expect(Math.abs((await read()) - expected())).toBeLessThan(2);
    app.clock.advance(90_000);
    expect(Math.abs((await read()) - expected())).toBeLessThan(2);
  });
});

describe(`without METRICS_PORT (${MODE})`, () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ env: { PROBE_INTERVAL_SECONDS: '86400' } });
  });
  afterAll(() => app?.close());

  it('serves nothing, registers nothing, and times no request', async () => {
    expect((await fetch(`${app.url}/api/public/v1/registers`)).status).toBe(200);
    expect(app.get(MetricsServer).port()).toBeUndefined();
    expect(app.get(Metrics).enabled).toBe(false);
    expect(await app.get(Metrics).page()).toBe('\n');
  });
});

/** The `expr` of every rule of a Prometheus rules file: on its line, or the block under `expr: |`. */
function ruleExpressions(yaml: string): string[] {
  const lines = yaml.split('\n');
  const out: string[] = [];
  lines.forEach((line, i) => {
    const m = /^(\s*)expr: (.*)$/.exec(line);
    if (!m) return;
    if (m[2].trim() !== '|') return out.push(m[2]);
    const block: string[] = [];
    for (let j = i + 1; j < lines.length && (lines[j].trim() === '' || lines[j].search(/\S/) > m[1].length); j++)
      block.push(lines[j].trim());
    out.push(block.join(' '));
  });
  return out;
}

/** Every PromQL expression of a Grafana dashboard's panels. */
function dashboardExpressions(dashboard: { panels?: Array<{ targets?: Array<{ expr?: string }> }> }): string[] {
  return (dashboard.panels ?? []).flatMap((p) => (p.targets ?? []).map((t) => t.expr ?? '')).filter(Boolean);
}

/** The metric names a PromQL expression reads (identifiers that are neither functions, keywords nor labels). */
function metricNames(expr: string): string[] {
  const withoutStrings = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, '')
    .replace(/\[[^\]]*\]/g, '');
  const words = withoutStrings.match(/[a-zA-Z_:][\w:]*/g) ?? [];
  const grouped = new Set(
    [...expr.matchAll(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\(([^)]*)\)/g)].flatMap((m) =>
      m[1].split(',').map((s) => s.trim()),
    ),
  );
  return words.filter((w) => /_/.test(w) && !PROMQL_WORDS.has(w) && !grouped.has(w) && !/^\$/.test(w));
}

const PROMQL_WORDS = new Set([
  'histogram_quantile',
  'label_replace',
  'count_over_time',
  'max_over_time',
  'min_over_time',
  'avg_over_time',
  'sum_over_time',
  'group_left',
  'group_right',
  'absent_over_time',
]);
