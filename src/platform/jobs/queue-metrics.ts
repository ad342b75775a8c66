import { Injectable } from '@nestjs/common';
import { Metrics } from '../metrics/metrics';
import { JobQueue } from './job-queue';

const STATES = ['waiting', 'active', 'delayed', 'failed'] as const;

/**
 * `job_queue_depth` by queue and state, read at scrape: from Redis on Bull (the same figure in
 * every process: aggregate with max, not sum), from this process's runner on the embedded
 * default. What to scale workers on (docs/operations.md#metrics).
 */
@Injectable()
export class QueueMetrics {
  constructor(metrics: Metrics, jobs: JobQueue) {
    metrics.collectedGauge(
      {
        name: 'job_queue_depth',
        help: 'Jobs in each queue by state (waiting, active, delayed, failed), read at scrape.',
        labelNames: ['queue', 'state'],
      },
      async (gauge) => {
        for (const counts of await jobs.counts())
          for (const state of STATES) gauge.set({ queue: counts.queue, state }, counts[state]);
      },
    );
  }
}
