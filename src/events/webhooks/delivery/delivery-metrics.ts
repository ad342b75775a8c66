import { Injectable } from '@nestjs/common';
import type { Counter, Histogram } from 'prom-client';
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
 * The delivery families: attempts by outcome, the lag of delivered events (event written →
 * receiver answered 2xx) for first attempts and retries apart — the first is what a worker
 * short of capacity makes grow, the second mostly the retry schedule — deliveries failed for
 * good, and endpoints disabled. Never an endpoint, URL or account as a label.
 */
@Injectable()
export class DeliveryMetrics {
  private readonly attempts: Counter<'outcome'>;
  private readonly lag: Histogram<'attempt'>;
  private readonly failed: Counter;
  private readonly disabled: Counter;

  constructor(metrics: Metrics) {
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
