import type { ChangeDetectionPlan } from '../change-detection';
import { CzNotificationFeed } from './cz-notification-feed';

/**
 * Czechia: ARES's notification batches, one numbered series per source. Register calls grow
 * with changes, not with watches: a poll with nothing new costs one list request per source
 * (nine), each batch ARES releases one request, and only the watched subjects a batch names are
 * re-read (one request each, `/ekonomicke-subjekty/{ico}`). Changes seen only in sources
 * without batches (VAT, insolvency, bankrupts) are not announced; they show on the next re-read.
 */
export const CZ_CHANGE_DETECTION: ChangeDetectionPlan = {
  mode: () => 'feed',
  readEndpoint: () => 'API',
  createFeed: (deps) => new CzNotificationFeed(deps),
  readme: {
    how: 'ARES notification batches `/ekonomicke-subjekty-notifikace` of vr, res, ros, rzp, nrpzs, rcns, rpsh, rs and szr, read from the stored batch number of each source; only watched subjects named in a batch are re-read (one request each). VAT and insolvency changes have no batches',
    credentials: 'none',
    delay:
      'the feed poll interval (FEED_POLL_INTERVAL_SECONDS, default 60 s) after ARES releases the batch (about one a day per source)',
  },
};
