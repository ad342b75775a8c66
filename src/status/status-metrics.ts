import { Injectable } from '@nestjs/common';
import type { Histogram } from 'prom-client';
import { Metrics } from '../platform/metrics/metrics';
import type { SourceId } from '../registers/source-id';
import { REGISTER_STATUSES } from './register-status';
import { RegisterStatusService } from './register-status.service';

/**
 * `register_state`, one-hot per register (1 for its state now, 0 for the two others, read at
 * scrape from the states the probes left: the same in every process, aggregate with max), and
 * `register_probe_duration_seconds` by register and result, observed where the probe runs.
 * `register` is the country code, or LEI for GLEIF's index.
 */
@Injectable()
export class StatusMetrics {
  private readonly probes: Histogram<'register' | 'result'>;

  constructor(metrics: Metrics, statuses: RegisterStatusService) {
    metrics.collectedGauge(
      {
        name: 'register_state',
        help: 'State of each register now: 1 for its state (live, degraded, paused), 0 for the others.',
        labelNames: ['register', 'state'],
      },
      async (gauge) => {
        for (const [register, current] of await statuses.all())
          for (const state of REGISTER_STATUSES) gauge.set({ register, state }, current.status === state ? 1 : 0);
      },
    );
    this.probes = metrics.histogram({
      name: 'register_probe_duration_seconds',
      help: 'Duration of register probes by register and result (ok, failed).',
      labelNames: ['register', 'result'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    });
  }

  probed(register: SourceId, ok: boolean, seconds: number): void {
    this.probes.observe({ register, result: ok ? 'ok' : 'failed' }, seconds);
  }
}
