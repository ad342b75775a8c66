import { Injectable, OnModuleInit } from '@nestjs/common';
import { JobProcessor, JobQueue } from '../../../platform/jobs/job-queue';
import { FEED_POLL_QUEUE, FeedPollJob } from './feed-poll.queue';
import { FeedPollService } from './feed-poll.service';

/** Takes feed-poll jobs off the queue. Worker only. */
@Injectable()
export class FeedPollProcessor implements OnModuleInit, JobProcessor<FeedPollJob> {
  constructor(
    private readonly jobs: JobQueue,
    private readonly feeds: FeedPollService,
  ) {}

  onModuleInit(): void {
    this.jobs.process(FEED_POLL_QUEUE, this);
  }

  async process(job: FeedPollJob): Promise<void> {
    await this.feeds.poll(job.country);
  }
}
