import type { ChangeDetectionPlan } from '../change-detection';
import { DkSidstOpdateretFeed } from './dk-sidst-opdateret-feed';

/** Denmark: the CVR query on `sidstOpdateret` since the last run; the companies it names are re-read. */
export const DK_CHANGE_DETECTION: ChangeDetectionPlan = {
  mode: () => 'feed',
  officers: () => 'reread',
  readEndpoint: () => 'API',
  createFeed: (deps) => new DkSidstOpdateretFeed(deps),
  readme: {
    how: 'CVR distribution query `range Vrvirksomhed.sidstOpdateret ≥ last seen`, polled for the numbers of changed companies; a watched one is re-read whole, participants included (one search request)',
    credentials: '`REGISTER_DK_USERNAME`, `REGISTER_DK_PASSWORD` (as for reads)',
    delay: 'the feed poll interval (FEED_POLL_INTERVAL_SECONDS, default 60 s) after CVR records the change',
  },
};
