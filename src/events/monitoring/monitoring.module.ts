import { StreamResourceStore } from './feeds/stream-resource-store';
import { StreamEntryApplier } from './snapshots/stream-entry-applier';
import { Module } from '@nestjs/common';
import { StatusModule } from '../../status/status.module';
import { AccountsModule } from '../accounts/accounts.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { CompanyCheckService } from './checks/company-check.service';
import { DetectionMetrics } from './detection-metrics';
import { DetectionEventWriter } from './events/detection-event-writer';
import { RegisterOutageNotifier } from './events/register-outage.notifier';
import { ChangeSources } from './feeds/change-sources.service';
import { FeedCursorStore } from './feeds/feed-cursor-store';
import { FeedEntriesService } from './feeds/feed-entries.service';
import { FeedPollService } from './feeds/feed-poll.service';
import { ChangeApplier } from './snapshots/change-applier';
import { SnapshotStore } from './snapshots/snapshot-store';
import { WatchStore } from './watches/watch-store';
import { WatchService } from './watches/watch.service';
import { WatchesController } from './watches/watches.controller';

/** Change detection: watches, snapshots, the diff, checks and feeds, and the events they cause. */
@Module({
  imports: [StatusModule, AccountsModule, WebhooksModule],
  controllers: [WatchesController],
  providers: [
    SnapshotStore,
    WatchStore,
    FeedCursorStore,
    DetectionEventWriter,
    DetectionMetrics,
    ChangeApplier,
    StreamResourceStore,
    StreamEntryApplier,
    ChangeSources,
    FeedEntriesService,
    FeedPollService,
    CompanyCheckService,
    RegisterOutageNotifier,
    WatchService,
  ],
  exports: [
    ChangeApplier,
    ChangeSources,
    FeedCursorStore,
    SnapshotStore,
    FeedEntriesService,
    FeedPollService,
    CompanyCheckService,
    DetectionEventWriter,
    WatchService,
  ],
})
export class MonitoringModule {}
