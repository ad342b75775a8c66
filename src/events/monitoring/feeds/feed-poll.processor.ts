import { Injectable, OnModuleInit } from '@nestjs/common';
import { JobProcessor, JobQueue } from '../../../platform/jobs/job-queue';
import { FeedPollJob } from './feed-poll.queue';
import { FeedPollService } from './feed-poll.service';

/** Takes feed-poll jobs off the queue. Worker only. */
@Injectable()
export class FeedPollProcessor implements OnModuleInit, JobProcessor<'feed-poll'> {
  constructor(
    private readonly jobs: JobQueue,
    private readonly feeds: FeedPollService,
  ) {}

  onModuleInit(): void {
    this.jobs.process('feed-poll', this);
  }

  async process(job: FeedPollJob): Promise<void> {
    await this.feeds.poll(job.country);
  }
}
