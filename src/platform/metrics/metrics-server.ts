import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AppConfig } from '../config/app-config';
import { Metrics } from './metrics';

const CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/**
 * GET /metrics on METRICS_PORT: a small node:http server of its own, apart from the public
 * one (the metrics say how the service runs, which is no business of its users) and in the
 * worker too, which opens no other port. Started once every module is initialised, by every
 * role; without METRICS_PORT, never.
 */
@Injectable()
export class MetricsServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(MetricsServer.name);
  private server?: Server;

  constructor(
    private readonly config: AppConfig,
    private readonly metrics: Metrics,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.metricsPort === undefined) return;
    const server = createServer((req, res) => {
      const path = (req.url ?? '').split('?')[0];
      if (path !== '/metrics') {
        res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found: metrics are at /metrics\n');
      } else if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain' }).end('Method not allowed\n');
      } else {
        this.metrics.page().then(
          (page) => res.writeHead(200, { 'Content-Type': CONTENT_TYPE }).end(page),
          (err: Error) => {
            this.logger.error(`metrics page failed: ${err.message}`);
            res.writeHead(500, { 'Content-Type': 'text/plain' }).end('metrics could not be collected\n');
          },
        );
      }
    });
    // Scrapers keep their connection; an idle one is closed like the public server's.
    server.keepAliveTimeout = this.config.http.keepAliveTimeoutMs;
    server.requestTimeout = this.config.http.requestTimeoutMs;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.config.metricsPort, this.config.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
    this.logger.log(`serving metrics on http://${this.config.host}:${this.port()}/metrics`);
  }

  /** The port the server listens on (METRICS_PORT, or the one picked for 0); undefined when not serving. */
  port(): number | undefined {
    return (this.server?.address() as AddressInfo | null)?.port;
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
