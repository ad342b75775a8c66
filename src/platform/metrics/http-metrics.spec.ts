import type { IncomingMessage } from 'node:http';
import { Histogram, Registry } from 'prom-client';
import { AppConfig } from '../config/app-config';
import type { RouteIndex } from '../errors/route-index';
import { HTTP_DURATION_BUCKETS, HTTP_DURATION_FAMILY, HttpMetrics } from './http-metrics';
import { Metrics } from './metrics';

/** The HTTP family's lines of a page (the Node process figures differ from one read to the next). */
async function familyText(registry: Registry): Promise<string> {
  const lines = (await registry.metrics()).split('\n');
  return lines.filter((l) => l.replace(/^# (HELP|TYPE) /, '').startsWith(HTTP_DURATION_FAMILY)).join('\n');
}

const templates: Record<string, string> = {
  '/api/public/v1/companies/GB/00000006': '/api/public/v1/companies/:country/:number',
};
const routes = { templateOf: (path: string) => templates[path] } as unknown as RouteIndex;

function request(method: string, url: string, route?: string): IncomingMessage {
  return { method, url, originalUrl: url, ...(route ? { route: { path: route } } : {}) } as unknown as IncomingMessage;
}

/** Requests across routes, methods and status classes, with durations on, between and past the bounds. */
const ANSWERED: [IncomingMessage, number, number][] = [
  [request('GET', '/api/public/v1/registers', '/api/public/v1/registers'), 200, 0.0004],
  [request('GET', '/api/public/v1/registers', '/api/public/v1/registers'), 200, 0.001],
  [request('GET', '/api/public/v1/registers?x=1', '/api/public/v1/registers'), 304, 0.0011],
  [request('GET', '/api/public/v1/companies/GB/00000006'), 200, 0.25],
  [request('GET', '/api/public/v1/companies/GB/00000006'), 503, 12],
  [request('POST', '/api/v1/watches', '/api/v1/watches'), 201, 0.04],
  [request('GET', '/no/such/thing?q="x"'), 404, 0.002],
  [request('GET', '/no/such/thing'), 404, 10],
  [request('GET', '/api/public/v1/registers', '/api/public/v1/registers'), 0, 0.003],
  [request('HEAD', '/api/public/v1/registers', '/api/public/v1/registers'), 199, 5],
];

describe('HttpMetrics: http_request_duration_seconds', () => {
  it('gives the page prom-client’s own Histogram gives for the same requests', async () => {
    const metrics = new Metrics(AppConfig.fromEnv({ METRICS_PORT: '9464' }));
    const http = new HttpMetrics(metrics, routes);
    http.register();
    const reference = new Registry();
    const histogram = new Histogram({
      name: HTTP_DURATION_FAMILY,
      help: 'Time from the request to the end of its response, by route template and status class.',
      labelNames: ['method', 'route', 'status_class'],
      buckets: HTTP_DURATION_BUCKETS,
      registers: [reference],
    });
    const expected: [string, string, string, number][] = [
      ['GET', '/api/public/v1/registers', '2xx', 0.0004],
      ['GET', '/api/public/v1/registers', '2xx', 0.001],
      ['GET', '/api/public/v1/registers', '3xx', 0.0011],
      ['GET', '/api/public/v1/companies/:country/:number', '2xx', 0.25],
      ['GET', '/api/public/v1/companies/:country/:number', '5xx', 12],
      ['POST', '/api/v1/watches', '2xx', 0.04],
      ['GET', 'unmatched', '4xx', 0.002],
      ['GET', 'unmatched', '4xx', 10],
      ['GET', '/api/public/v1/registers', 'other', 0.003],
      ['HEAD', '/api/public/v1/registers', '1xx', 5],
    ];
    for (const [method, route, status_class, seconds] of expected)
      histogram.observe({ method, route, status_class }, seconds);
    for (const [req, status, seconds] of ANSWERED) http.record(req, status, seconds);

    const lines = (text: string) => text.split('\n').sort();
    expect(lines(await familyText(metrics.registry))).toEqual(lines(await familyText(reference)));
    expect(await familyText(metrics.registry)).toContain(
      'http_request_duration_seconds_bucket{le="0.001",method="GET",route="/api/public/v1/registers",status_class="2xx"} 2',
    );
  });

  it('starts again from zero when the registry is reset, and is not on a page it was not registered on', async () => {
    const metrics = new Metrics(AppConfig.fromEnv({ METRICS_PORT: '9464' }));
    const http = new HttpMetrics(metrics, routes);
    http.record(...ANSWERED[0]);
    expect(metrics.registry.getSingleMetric(HTTP_DURATION_FAMILY)).toBeUndefined();
    http.register();
    http.record(...ANSWERED[0]);
    expect(await familyText(metrics.registry)).toContain('http_request_duration_seconds_count{method="GET"');
    metrics.registry.resetMetrics();
    expect((await familyText(metrics.registry)).split('\n')).toEqual([
      expect.stringMatching(/^# HELP http_request_duration_seconds /),
      '# TYPE http_request_duration_seconds histogram',
    ]);
  });

  it('counts nothing without METRICS_PORT', async () => {
    const metrics = new Metrics(AppConfig.fromEnv({}));
    const http = new HttpMetrics(metrics, routes);
    http.register();
    for (const answered of ANSWERED) http.record(...answered);
    expect((await metrics.page()).trim()).toBe('');
  });
});
