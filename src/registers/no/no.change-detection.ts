import type { ChangeDetectionPlan } from '../change-detection';
import { NoUpdateFeed } from './no-update-feed';

/** Norway: the keyless update feed; only the watched units it names are re-read. */
export const NO_CHANGE_DETECTION: ChangeDetectionPlan = {
  mode: () => 'feed',
  readEndpoint: () => 'API',
  createFeed: (deps) => new NoUpdateFeed(deps),
  readme: {
    how: 'Update feed `/oppdateringer/enheter` polled from a stored `oppdateringsid`; only watched units named in it are re-read (one request each)',
    credentials: 'none',
    delay: 'the feed poll interval (FEED_POLL_INTERVAL_SECONDS, default 60 s) after brreg publishes the update',
  },
};
