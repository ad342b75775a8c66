import { Module } from '@nestjs/common';
import { ConnectorsModule } from '../../registers/connectors.module';
import { StatusCoreModule } from '../../status/status-core.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { CompanyCheckService } from './checks/company-check.service';
import { ChangeEventSink } from './events/change-event-sink';
import { RegisterOutageNotifier } from './events/register-outage.notifier';
import { PublisherChangeEventSink } from './events/publisher-change-event-sink';
import { ChangeSources } from './feeds/change-sources.service';
import { FeedCursors } from './feeds/feed-cursors.service';
import { FeedEntriesService } from './feeds/feed-entries.service';
import { FeedPollService } from './feeds/feed-poll.service';
import { ChangeApplier } from './snapshots/change-applier';
import { WatchService } from './watches/watch.service';

/** Change detection: snapshots, the diff, checks and feeds, and the events they cause. */
@Module({
  imports: [ConnectorsModule, StatusCoreModule, WebhooksModule],
  providers: [
    { provide: ChangeEventSink, useClass: PublisherChangeEventSink },
    ChangeApplier,
    ChangeSources,
    FeedCursors,
    FeedEntriesService,
    FeedPollService,
    CompanyCheckService,
    RegisterOutageNotifier,
    WatchService,
  ],
  exports: [
    ChangeApplier,
    ChangeSources,
    FeedCursors,
    FeedEntriesService,
    FeedPollService,
    CompanyCheckService,
    ChangeEventSink,
    WatchService,
  ],
})
export class MonitoringModule {}
