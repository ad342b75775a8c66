import { Injectable } from '@nestjs/common';
import { JobQueue } from '../../../platform/jobs/job-queue';
import { CountryCode } from '../../../registers/registers';
import { FEED_POLL_QUEUE } from './feed-poll.queue';

/** The only thing that adds feed-poll jobs. */
@Injectable()
export class FeedPollQueue {
  constructor(private readonly jobs: JobQueue) {}

  async enqueue(country: CountryCode, slotStart: Date): Promise<void> {
    const iso = slotStart.toISOString();
    await this.jobs.add(FEED_POLL_QUEUE, { country, slotStart: iso }, { jobId: `feed:${country}:${iso}` });
  }
}
