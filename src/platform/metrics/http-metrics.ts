import { Injectable } from '@nestjs/common';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Histogram } from 'prom-client';
import { RouteIndex } from '../errors/route-index';
import { Metrics } from './metrics';

/** The route label of a request that is under no route of the application (404s, /docs' static files). */
export const UNMATCHED_ROUTE = 'unmatched';

/** URLs whose route template was looked up, kept at most this many (URLs of 404s are unbounded). */
const TEMPLATES_KEPT = 512;

type RoutedRequest = IncomingMessage & { route?: { path?: unknown }; originalUrl?: string };

/**
 * `http_request_duration_seconds` by method, route template and status class: the route as the
 * controller declares it (`/api/public/v1/companies/:country/:number`), never the URL, so the
 * label set stays as small as the route table.
 */
@Injectable()
export class HttpMetrics {
  private histogram?: Histogram<'method' | 'route' | 'status_class'>;
  // Each series' child, so that a request does not rebuild its label object.
  private readonly series = new Map<string, { observe(seconds: number): void }>();
  private readonly templates = new Map<string, string>();

  constructor(
    private readonly metrics: Metrics,
    private readonly routes: RouteIndex,
  ) {}

  /**
   * Times every request of `server`: a listener of its own on the server's `request` event,
   * ahead of the application's, not a middleware (an Express layer cost more per request than
   * the histogram itself, bench/metrics.js). The family exists from this call on: a worker,
   * which serves no HTTP, has none.
   */
  observe(server: Server): void {
    this.histogram ??= this.metrics.histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from the request to the end of its response, by route template and status class.',
      labelNames: ['method', 'route', 'status_class'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    });
    server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
      const started = performance.now();
      // 'close' also comes when the client went away before the end of the response.
      res.once('close', () => this.record(req as RoutedRequest, res.statusCode, (performance.now() - started) / 1000));
    });
  }

  private record(req: RoutedRequest, status: number, seconds: number): void {
    const route = this.routeOf(req);
    const statusClass = status >= 100 && status < 600 ? `${Math.floor(status / 100)}xx` : 'other';
    const key = `${req.method} ${statusClass} ${route}`;
    let series = this.series.get(key);
    if (!series) {
      series = this.histogram!.labels(req.method ?? 'OTHER', route, statusClass);
      this.series.set(key, series);
    }
    series.observe(seconds);
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
