import { Injectable } from '@nestjs/common';
import { JobQueue } from '../../../platform/jobs/job-queue';
import { CountryCode } from '../../../registers/register-table';

/** The only thing that adds feed-poll jobs. */
@Injectable()
export class FeedPollQueue {
  constructor(private readonly jobs: JobQueue) {}

  async enqueue(country: CountryCode, slotStart: Date): Promise<void> {
    const iso = slotStart.toISOString();
    await this.jobs.add('feed-poll', { country, slotStart: iso }, { jobId: `feed:${country}:${iso}` });
  }
}
