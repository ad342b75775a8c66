import { Module } from '@nestjs/common';
import { StatusModule } from '../../status/status.module';
import { DetectionCheckQueue } from './checks/detection-check-queue.service';
import { DetectionCheckProcessor } from './checks/detection-check.processor';
import { DetectionCheckScheduler } from './checks/detection-check.scheduler';
import { ChangeStreamRunner } from './feeds/change-stream.runner';
import { FeedCursorMetrics } from './feeds/feed-cursor-metrics';
import { FeedPollQueue } from './feeds/feed-poll-queue.service';
import { FeedPollProcessor } from './feeds/feed-poll.processor';
import { FeedPollScheduler } from './feeds/feed-poll.scheduler';
import { MonitoringModule } from './monitoring.module';

/** Detection in the worker: the schedules that enqueue checks and feed polls, their processors, and the stream follower. */
@Module({
  imports: [MonitoringModule, StatusModule],
  providers: [
    DetectionCheckQueue,
    DetectionCheckScheduler,
    DetectionCheckProcessor,
    FeedPollQueue,
    FeedPollScheduler,
    FeedPollProcessor,
    ChangeStreamRunner,
    FeedCursorMetrics,
  ],
})
export class DetectionWorkerModule {}
