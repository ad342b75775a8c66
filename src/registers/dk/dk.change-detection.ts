import type { ChangeDetectionPlan } from '../change-detection';
import { DkSidstOpdateretFeed } from './dk-sidst-opdateret-feed';

/** Denmark: the CVR query on `sidstOpdateret` since the last run. */
export const DK_CHANGE_DETECTION: ChangeDetectionPlan = {
  mode: () => 'feed',
  readEndpoint: () => 'API',
  createFeed: (deps) => new DkSidstOpdateretFeed(deps),
  readme: {
    how: 'CVR distribution query `range Vrvirksomhed.sidstOpdateret ≥ last seen`, polled; each hit is the whole current document (no re-read)',
    credentials: '`REGISTER_DK_USERNAME`, `REGISTER_DK_PASSWORD` (as for reads)',
    delay: 'the feed poll interval (FEED_POLL_INTERVAL_SECONDS, default 60 s) after CVR records the change',
  },
};
