import { Injectable, Logger } from '@nestjs/common';
import {
  Counter,
  CounterConfiguration,
  DefaultMetricsCollectorConfiguration,
  Gauge,
  GaugeConfiguration,
  Histogram,
  HistogramConfiguration,
  Registry,
} from 'prom-client';
import { AppConfig } from '../config/app-config';

/**
 * prom-client's default collectors (the list collectDefaultMetrics runs), each loaded alone so
 * that the costly one can be left out: `gc` observes every garbage collection, a callback per
 * collection that cost about 4 % of the CPU of a /registers request (bench/metrics.js); the
 * others read the process at scrape, or sample the event loop every 10 ms.
 */
export const DEFAULT_COLLECTORS = [
  'processCpuTotal',
  'processStartTime',
  'osMemoryHeap',
  'processOpenFileDescriptors',
  'processMaxFileDescriptors',
  'eventLoopLag',
  'processResources',
  'processHandles',
  'processRequests',
  'heapSizeAndUsed',
  'heapSpacesSizeAndUsed',
  'version',
] as const;
const GC_COLLECTOR = 'gc';

type DefaultCollector = (registry: Registry, config: DefaultMetricsCollectorConfiguration<never>) => void;

/** One of prom-client's default collectors, by the name of its module (lib/metrics/<name>.js). */
function defaultCollector(name: string): DefaultCollector {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(`prom-client/lib/metrics/${name}`) as DefaultCollector;
}

const GAUGES_NAMED_TOTAL = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
];

/** Longest a scrape waits for one collector (a database or Redis read): past it, that family is left out. */
const COLLECT_TIMEOUT_MS = 2_000;

/**
 * This process's metrics: one prom-client registry (never prom-client's global one, so that
 * two applications in one process — the tests — keep theirs apart), served by MetricsServer.
 * Without METRICS_PORT every metric is still made, on no registry: an increment then costs a
 * few property writes and nothing is collected at scrape, since nothing scrapes.
 */
@Injectable()
export class Metrics {
  private readonly logger = new Logger(Metrics.name);
  readonly enabled: boolean;
  readonly registry = new Registry();

  constructor(config: AppConfig) {
    this.enabled = config.metricsPort !== undefined;
    if (this.enabled) {
      const names = config.metricsGcDuration ? [...DEFAULT_COLLECTORS, GC_COLLECTOR] : DEFAULT_COLLECTORS;
      for (const name of names) defaultCollector(name)(this.registry, { eventLoopMonitoringPrecision: 10 });
      // Gauges named like counters, which `promtool check metrics` refuses; the same counts by type remain.
      for (const name of GAUGES_NAMED_TOTAL) this.registry.removeSingleMetric(name);
    }
  }

  counter<L extends string>(config: Omit<CounterConfiguration<L>, 'registers'>): Counter<L> {
    return new Counter({ ...config, registers: this.registers() });
  }

  histogram<L extends string>(config: Omit<HistogramConfiguration<L>, 'registers'>): Histogram<L> {
    return new Histogram({ ...config, registers: this.registers() });
  }

  /**
   * A gauge whose values are read at scrape by `read` (the queue's counts, a table): nothing runs
   * between scrapes. A read that fails or takes longer than COLLECT_TIMEOUT_MS leaves the family
   * without samples for that scrape, rather than failing the page or showing stale values.
   */
  collectedGauge<L extends string>(
    config: Omit<GaugeConfiguration<L>, 'registers' | 'collect'>,
    read: (gauge: Gauge<L>) => Promise<void>,
  ): Gauge<L> {
    const logger = this.logger;
    // One warning when reads start failing (Redis or the database down), not one per scrape.
    let failing = false;
    return new Gauge<L>({
      ...config,
      registers: this.registers(),
      async collect() {
        this.reset();
        let timer: NodeJS.Timeout | undefined;
        try {
          await Promise.race([
            read(this),
            new Promise((_, reject) => {
              timer = setTimeout(
                () => reject(new Error(`no answer within ${COLLECT_TIMEOUT_MS} ms`)),
                COLLECT_TIMEOUT_MS,
              );
            }),
          ]);
          failing = false;
        } catch (err) {
          this.reset();
          const message = `${config.name} left out of the scrapes until it can be read: ${(err as Error).message}`;
          if (failing) logger.debug(message);
          else logger.warn(message);
          failing = true;
        } finally {
          clearTimeout(timer);
        }
      },
    });
  }

  /** The page: every family in the Prometheus text format. */
  page(): Promise<string> {
    return this.registry.metrics();
  }

  private registers(): Registry[] {
    return this.enabled ? [this.registry] : [];
  }
}
