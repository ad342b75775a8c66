import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import type { Counter, Histogram } from 'prom-client';
import { DataSource } from 'typeorm';
import { Clock } from '../../../platform/clock';
import { Metrics } from '../../../platform/metrics/metrics';

/** The outcome label of an attempt: a bounded set, whatever the receiver answered. */
export const ATTEMPT_OUTCOMES = [
  'success',
  'http_error',
  'timeout',
  'network_error',
  'target_refused',
  'internal_error',
] as const;
export type AttemptOutcome = (typeof ATTEMPT_OUTCOMES)[number];

/** The error classes of the delivery log, by outcome label. */
const OUTCOME_OF: Record<string, AttemptOutcome> = {
  http_error: 'http_error',
  redirect_not_followed: 'http_error',
  timeout: 'timeout',
  dns_error: 'network_error',
  connection_refused: 'network_error',
  connection_reset: 'network_error',
  tls_error: 'network_error',
  network_error: 'network_error',
  target_not_allowed: 'target_refused',
  invalid_url: 'target_refused',
  // Our fault, not the receiver's: an endpoint's secret this process cannot open.
  signing_unavailable: 'internal_error',
};

/** One recorded attempt, as the metrics read it. */
export interface RecordedAttempt {
  /** The delivery log's error class; null when the receiver answered 2xx. */
  errorClass: string | null;
  /** The delivery after the attempt. */
  state: 'succeeded' | 'pending' | 'failed';
  attempt: number;
  eventCreatedAt: Date;
  /** The endpoint was disabled by this outcome. */
  endpointDisabled: boolean;
}

/**
 * Past this, a process says so at start: its leases (WEBHOOK_TIMEOUT_MS plus a 5 s margin) end
 * early or late in the others' eyes, and past the margin an attempt may be made twice.
 */
const CLOCK_OFFSET_WARN_MS = 1_000;

/**
 * This process's clock minus the database's, in milliseconds: the database's time read between
 * two readings of ours, so within half a round trip. Leases, retries and circuits are timed by
 * each process's own clock (the injected Clock, as the claims use it).
 */
export async function clockOffsetMs(dataSource: DataSource, clock: Clock): Promise<number> {
  const before = clock.now().getTime();
  const [row] = (await dataSource.query(`SELECT extract(epoch FROM clock_timestamp()) * 1000 AS ms`)) as Array<{
    ms: string | number;
  }>;
  const after = clock.now().getTime();
  return (before + after) / 2 - Number(row.ms);
}

/**
 * The delivery families: attempts by outcome, the lag of delivered events (event written →
 * receiver answered 2xx) for first attempts and retries apart — the first is what a worker
 * short of capacity makes grow, the second mostly the retry schedule — deliveries failed for
 * good, endpoints disabled, and how far this process's clock is from the database's (which
 * the processes' leases share). Never an endpoint, URL or account as a label.
 */
@Injectable()
export class DeliveryMetrics implements OnApplicationBootstrap {
  private readonly logger = new Logger(DeliveryMetrics.name);
  private readonly attempts: Counter<'outcome'>;
  private readonly lag: Histogram<'attempt'>;
  private readonly failed: Counter;
  private readonly disabled: Counter;

  constructor(
    metrics: Metrics,
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {
    this.attempts = metrics.counter({
      name: 'webhook_delivery_attempts_total',
      help: 'Webhook delivery attempts by outcome (success: a 2xx answer in time).',
      labelNames: ['outcome'],
    });
    for (const outcome of ATTEMPT_OUTCOMES) this.attempts.inc({ outcome }, 0);
    this.lag = metrics.histogram({
      name: 'webhook_delivery_lag_seconds',
      help: 'From the event written to its receiver answering 2xx, by attempt (first, retry).',
      labelNames: ['attempt'],
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800, 3600, 21_600, 86_400],
    });
    this.failed = metrics.counter({
      name: 'webhook_deliveries_failed_total',
      help: 'Webhook deliveries failed for good (their last attempt failed, or their endpoint was disabled).',
    });
    this.disabled = metrics.counter({
      name: 'webhook_endpoints_disabled_total',
      help: 'Webhook endpoints disabled after failing for WEBHOOK_DISABLE_AFTER.',
    });
    metrics.collectedGauge(
      {
        name: 'database_clock_offset_seconds',
        help: "This process's clock minus the database's, read at scrape (within half a round trip). Delivery leases are timed by each process's clock.",
      },
      async (gauge) => gauge.set((await clockOffsetMs(dataSource, clock)) / 1000),
    );
  }

  /** Says at start when this process's clock is off the database's (without holding the start up). */
  onApplicationBootstrap(): void {
    clockOffsetMs(this.dataSource, this.clock).then(
      (offset) => {
        if (Math.abs(offset) > CLOCK_OFFSET_WARN_MS)
          this.logger.warn(
            `this process's clock is ${(offset / 1000).toFixed(1)} s off the database's: delivery leases are timed by each process's clock; keep every host on NTP`,
          );
      },
      (err: Error) => this.logger.debug(`could not compare the clock with the database's: ${err.message}`),
    );
  }

  /** Counts one attempt whose outcome was written at `at`. */
  recorded(a: RecordedAttempt, at: Date): void {
    this.attempts.inc({ outcome: a.errorClass === null ? 'success' : (OUTCOME_OF[a.errorClass] ?? 'internal_error') });
    if (a.state === 'succeeded')
      this.lag.observe(
        { attempt: a.attempt === 1 ? 'first' : 'retry' },
        Math.max(0, (at.getTime() - a.eventCreatedAt.getTime()) / 1000),
      );
    else if (a.state === 'failed') this.failed.inc();
    if (a.endpointDisabled) this.disabled.inc();
  }
}
