import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { AppConfig } from '../../../platform/config/app-config';
import { Clock } from '../../../platform/clock';
import { ConnectorRegistry } from '../../../registers/connector-registry';
import { COUNTRY_CODES } from '../../../registers/registers';
import { ChangeSources } from './change-sources.service';
import { FeedPollQueue } from './feed-poll-queue.service';

/** Enqueues one poll per feed register per FEED_POLL_INTERVAL_SECONDS slot. Only enqueues. Worker only. */
@Injectable()
export class FeedPollScheduler implements OnApplicationBootstrap {
  private readonly logger = new Logger(FeedPollScheduler.name);

  constructor(
    private readonly queue: FeedPollQueue,
    private readonly sources: ChangeSources,
    private readonly connectors: ConnectorRegistry,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly scheduler: SchedulerRegistry,
  ) {}

  onApplicationBootstrap(): void {
    const every = Math.min(this.config.detection.feedPollIntervalSeconds * 1000, 15_000);
    const interval = setInterval(
      () => void this.tick().catch((err: Error) => this.logger.error(`feed scheduling failed: ${err.message}`)),
      every,
    );
    this.scheduler.addInterval('feed-poll-scheduler', interval);
  }

  async tick(): Promise<void> {
    const ms = this.config.detection.feedPollIntervalSeconds * 1000;
    const slotStart = new Date(Math.floor(this.clock.now().getTime() / ms) * ms);
    for (const country of COUNTRY_CODES) {
      if (this.connectors.pauseReason(country) || this.sources.mode(country) !== 'feed') continue;
      await this.queue.enqueue(country, slotStart);
    }
  }
}
