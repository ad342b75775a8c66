import { Injectable } from '@nestjs/common';
import { JobQueue } from '../../../platform/jobs/job-queue';
import { CountryCode } from '../../../registers/registers';
import { DETECTION_CHECK_QUEUE } from './detection-check.queue';

/** The only thing that adds detection-check jobs. */
@Injectable()
export class DetectionCheckQueue {
  constructor(private readonly jobs: JobQueue) {}

  /** One job per batch; the lease token in the id makes a repeated add a no-op. */
  /** One per feed position: any number of schedulers add it once. */
  async enqueueQuietConfirmation(country: CountryCode, upTo: Date): Promise<void> {
    await this.jobs.add(
      DETECTION_CHECK_QUEUE,
      { country, confirmQuietUpTo: upTo.toISOString() },
      { jobId: `quiet:${country}:${upTo.toISOString()}` },
    );
  }

  async enqueue(country: CountryCode, leaseToken: string, entityIds: string[], batchSize: number): Promise<void> {
    for (let i = 0; i < entityIds.length; i += batchSize) {
      await this.jobs.add(
        DETECTION_CHECK_QUEUE,
        { country, leaseToken, entityIds: entityIds.slice(i, i + batchSize) },
        { jobId: `check:${leaseToken}:${i}` },
      );
    }
  }
}
