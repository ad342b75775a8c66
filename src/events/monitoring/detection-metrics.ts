import { Injectable } from '@nestjs/common';
import type { Counter } from 'prom-client';
import { Metrics } from '../../platform/metrics/metrics';
import type { EventKind } from '../event-kinds';

/**
 * `detection_checks_total` by register and outcome (a check of one watched company: read,
 * confirmed against the feed, or skipped), and `detection_changes_total` by register and the
 * kind of change found (once per change, however many accounts watch the company).
 */
@Injectable()
export class DetectionMetrics {
  private readonly checks: Counter<'register' | 'outcome'>;
  private readonly changes: Counter<'register' | 'kind'>;

  constructor(metrics: Metrics) {
    this.checks = metrics.counter({
      name: 'detection_checks_total',
      help: 'Change-detection checks of watched companies, by register and outcome.',
      labelNames: ['register', 'outcome'],
    });
    this.changes = metrics.counter({
      name: 'detection_changes_total',
      help: 'Changes found by change detection (checks, feeds and streams), by register and event kind.',
      labelNames: ['register', 'kind'],
    });
  }

  checked(register: string, outcome: string, n = 1): void {
    if (n > 0) this.checks.inc({ register, outcome }, n);
  }

  changed(register: string, kind: EventKind, n = 1): void {
    if (n > 0) this.changes.inc({ register, kind }, n);
  }
}
