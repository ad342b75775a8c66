import { CompanyEntity } from '../dataset/company.entity';
import { FeedCursorEntity } from '../events/monitoring/feeds/feed-cursor.entity';
import { CompanySnapshotEntity } from '../events/monitoring/snapshots/company-snapshot.entity';
import { WatchEntity } from '../events/monitoring/watches/watch.entity';
import { ProbeEntity } from '../status/probe.entity';
import { RegisterStateEntity } from '../status/register-state.entity';
import { RegisterStatusTransitionEntity } from '../status/register-status-transition.entity';

export const ENTITIES = [
  ProbeEntity,
  RegisterStateEntity,
  RegisterStatusTransitionEntity,
  CompanyEntity,
  CompanySnapshotEntity,
  WatchEntity,
  FeedCursorEntity,
];
