import type { ChangeDetectionPlan } from '../change-detection';
import { PL_FEED_SETTLE_MS, PlBiuletynFeed } from './pl-biuletyn-feed';

/**
 * Poland: the keyless KRS bulletins of changed numbers — each finished hour of the day from
 * `BiuletynGodzinowy`, each finished day from `Biuletyn` (the catch-up: it covers the day's
 * last hour, which an hour range cannot name, and anything an hour missed). Entries carry no
 * record: only the watched entities named are re-read, one current extract each.
 */
export const PL_CHANGE_DETECTION: ChangeDetectionPlan = {
  mode: () => 'feed',
  officers: () => 'reread',
  readEndpoint: () => 'API',
  createFeed: (deps) => PlBiuletynFeed.fromDeps(deps),
  readme: {
    how: 'Hourly bulletin `/BiuletynGodzinowy/{day}?godzinaOd=H&godzinaDo=H+1` for each finished hour (Warsaw time) and the daily `/Biuletyn/{day}` once the day is over, polled from a stored day-and-hour cursor; only watched entities named in them are re-read (one `OdpisAktualny` each)',
    credentials: 'none',
    delay: `the end of the hour of the change plus ${PL_FEED_SETTLE_MS / 60_000} min, then the feed poll interval (FEED_POLL_INTERVAL_SECONDS, default 60 s); a change at the day's last hour waits for the daily bulletin after midnight`,
  },
};
