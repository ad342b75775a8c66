import type { ChangeDetectionPlan } from '../change-detection';
import { NoRoleFeed } from './no-role-feed';
import { NoUpdateFeed } from './no-update-feed';

/** Norway: the keyless update feeds of units and of roles; only the watched units they name are re-read, with their roles. */
export const NO_CHANGE_DETECTION: ChangeDetectionPlan = {
  mode: () => 'feed',
  readEndpoint: () => 'API',
  createFeed: (deps) => new NoUpdateFeed(deps),
  extraFeeds: { roles: (deps) => new NoRoleFeed(deps) },
  officers: () => 'reread',
  readme: {
    how: 'Update feeds `/oppdateringer/enheter` (from a stored `oppdateringsid`) and `/oppdateringer/roller` (from a stored `afterId`), polled; only watched units named in them are re-read, with their roles (`/enheter/{orgnr}` and `/enheter/{orgnr}/roller`), and the role lists compared',
    credentials: 'none',
    delay: 'the feed poll interval (FEED_POLL_INTERVAL_SECONDS, default 60 s) after brreg publishes the update',
  },
};
