import type { ChangeDetectionPlan } from '../change-detection';
import { CzNotificationFeed } from './cz-notification-feed';

/** How long a watched subject goes without a read before what no batch announces is looked for. */
export const CZ_REREAD_AFTER_SECONDS = 24 * 3600;

/**
 * Czechia: ARES's notification batches, one numbered series per source. Register calls grow
 * with changes, not with watches: a poll with nothing new costs one list request per source
 * (nine), each batch ARES releases one request, and only the watched subjects a batch names are
 * re-read (one request each, `/ekonomicke-subjekty/{ico}`).
 *
 * The sources without batches are another matter: the insolvency register (ISIR) and the
 * central register of bankrupts (CEÚ) make a subject's status "in insolvency", and no batch says
 * so; VAT and excise change nothing detection compares. So a watched subject that no batch has
 * named for a day is re-read at its next scheduled check (one request per subject a day at
 * most), and the others are confirmed against the feed without a request.
 */
export const CZ_CHANGE_DETECTION: ChangeDetectionPlan = {
  mode: () => 'feed',
  officers: () => 'reread',
  readEndpoint: () => 'API',
  rereadAfterSeconds: CZ_REREAD_AFTER_SECONDS,
  createFeed: (deps) => new CzNotificationFeed(deps),
  readme: {
    how: 'ARES notification batches `/ekonomicke-subjekty-notifikace` of vr, res, ros, rzp, nrpzs, rcns, rpsh, rs and szr, read from the stored batch number of each source; only watched subjects named in a batch are re-read (one request each). The insolvency register and the register of bankrupts have no batches: a watched subject not read for 24 h is re-read at its next scheduled check',
    credentials: 'none',
    delay:
      'the feed poll interval (FEED_POLL_INTERVAL_SECONDS, default 60 s) after ARES releases the batch (about one a day per source); an insolvency up to 24 h plus DETECTION_INTERVAL_SECONDS',
  },
};
