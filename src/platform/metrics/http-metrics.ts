import { Injectable } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import type { Metric } from 'prom-client';
import { RouteIndex } from '../errors/route-index';
import type { DurationRecorder } from '../logging/request-logging';
import { Metrics } from './metrics';

/** The route label of a request that is under no route of the application (404s, /docs' static files). */
export const UNMATCHED_ROUTE = 'unmatched';

export const HTTP_DURATION_FAMILY = 'http_request_duration_seconds';
const BUCKET = `${HTTP_DURATION_FAMILY}_bucket`;
const HELP = 'Time from the request to the end of its response, by route template and status class.';
export const HTTP_DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** URLs whose route template was looked up, kept at most this many (URLs of 404s are unbounded). */
const TEMPLATES_KEPT = 512;

/** Status classes 1xx–5xx by their first digit, and `other` (slot 0) for anything outside 100–599. */
const STATUS_CLASSES = ['other', '1xx', '2xx', '3xx', '4xx', '5xx'];

type RoutedRequest = IncomingMessage & { route?: { path?: unknown }; originalUrl?: string };
type Labels = { method: string; route: string; status_class: string };
/** A sample as prom-client's metrics give theirs to the registry (Histogram.get()'s values). */
type Sample = {
  metricName: string;
  labels: Record<string, string | number>;
  sharedLabels: Labels;
  value: number;
};

/** One label set's observations: a count per bucket (the last slot past every bound), their sum. */
class Series {
  readonly counts = new Float64Array(HTTP_DURATION_BUCKETS.length + 1);
  sum = 0;
  count = 0;

  constructor(readonly labels: Labels) {}

  add(seconds: number): void {
    let i = 0;
    while (i < HTTP_DURATION_BUCKETS.length && seconds > HTTP_DURATION_BUCKETS[i]) i++;
    this.counts[i]++;
    this.sum += seconds;
    this.count++;
  }
}

/**
 * `http_request_duration_seconds` by method, route template and status class: the route as the
 * controller declares it (`/api/public/v1/companies/:country/:number`), never the URL, so the
 * label set stays as small as the route table.
 *
 * Counted here and handed to prom-client's registry as a finished histogram at scrape, rather
 * than through prom-client's Histogram: its observe() builds a key string and converts the
 * bucket bound to a property name on every request: with its own listener, 3.7 % more CPU per
 * /registers request than this (docs/benchmarks.md, "Metrics cost").
 * The page's text (escaping, `le`, `_sum`, `_count`) is still prom-client's.
 */
@Injectable()
export class HttpMetrics implements DurationRecorder {
  // route → method → a series per status class (STATUS_CLASSES' slots): lookups by strings the
  // router and the HTTP parser hand over as they are, so that a request builds no key.
  private readonly series = new Map<string, Map<string, (Series | undefined)[]>>();
  private readonly templates = new Map<string, string>();
  private registered = false;

  constructor(
    private readonly metrics: Metrics,
    private readonly routes: RouteIndex,
  ) {}

  /**
   * Puts the family on the metrics page and returns the recorder for the request log line's
   * listener; without METRICS_PORT, nothing (no request is timed). A worker, which serves no
   * HTTP, never calls it and has no such family.
   */
  register(): DurationRecorder | undefined {
    if (!this.metrics.enabled) return undefined;
    if (this.registered) return this;
    this.registered = true;
    const family = {
      name: HTTP_DURATION_FAMILY,
      help: HELP,
      type: 'histogram',
      aggregator: 'sum',
      get: () => Promise.resolve(this.page()),
      reset: () => this.series.clear(),
    };
    // The registry takes any object with a name and get() (prom-client's registry.js); its type names only its own classes.
    this.metrics.registry.registerMetric(family as unknown as Metric);
    return this;
  }

  /** Counts one answered request; called by the request's log line (request-logging.ts) when it closes. */
  record(req: IncomingMessage, status: number, seconds: number): void {
    if (!this.registered) return;
    const route = this.routeOf(req as RoutedRequest);
    const method = req.method ?? 'OTHER';
    let byMethod = this.series.get(route);
    if (!byMethod) this.series.set(route, (byMethod = new Map()));
    let byClass = byMethod.get(method);
    if (!byClass) byMethod.set(method, (byClass = []));
    const slot = status >= 100 && status < 600 ? Math.floor(status / 100) : 0;
    let series = byClass[slot];
    if (!series) series = byClass[slot] = new Series({ method, route, status_class: STATUS_CLASSES[slot] });
    series.add(seconds);
  }

  /** The family as prom-client's Histogram.get() gives it: cumulative buckets, +Inf, sum and count per series. */
  private page(): { name: string; help: string; type: 'histogram'; aggregator: 'sum'; values: Sample[] } {
    const values: Sample[] = [];
    for (const byMethod of this.series.values())
      for (const byClass of byMethod.values())
        for (const series of byClass) {
          if (!series) continue;
          // The family's labels as shared labels, `le` first: the order prom-client's Histogram writes.
          const { labels: sharedLabels, count, sum } = series;
          let cumulative = 0;
          HTTP_DURATION_BUCKETS.forEach((le, i) => {
            cumulative += series.counts[i];
            values.push({ metricName: BUCKET, labels: { le }, sharedLabels, value: cumulative });
          });
          values.push(
            { metricName: BUCKET, labels: { le: '+Inf' }, sharedLabels, value: count },
            { metricName: `${HTTP_DURATION_FAMILY}_sum`, labels: {}, sharedLabels, value: sum },
            { metricName: `${HTTP_DURATION_FAMILY}_count`, labels: {}, sharedLabels, value: count },
          );
        }
    return { name: HTTP_DURATION_FAMILY, help: HELP, type: 'histogram', aggregator: 'sum', values };
  }

  /** Express's matched route; else (answered ahead of the router, a 404, a 405) the route the path is under. */
  private routeOf(req: RoutedRequest): string {
    const matched = req.route?.path;
    if (typeof matched === 'string') return matched;
    // Keyed by the URL as sent (query included; Express's mounts rewrite req.url): a hit costs no parsing.
    const url = req.originalUrl ?? req.url ?? '';
    let template = this.templates.get(url);
    if (template === undefined) {
      template = this.routes.templateOf(url.split('?')[0]) ?? UNMATCHED_ROUTE;
      if (this.templates.size >= TEMPLATES_KEPT) this.templates.clear();
      this.templates.set(url, template);
    }
    return template;
  }
}
