import type { ChangeDetectionPlan } from '../change-detection';

/**
 * Finland: scheduled re-reads. PRH has no change feed and `/companies` no "modified since"
 * (`registrationDateStart` finds new companies only); the Registered Notices API is unseen (no
 * sample answer), so nothing rests on it.
 *
 * Why not diff the daily `/all_companies` dump on `lastModified`? In bytes it is cheaper past
 * roughly a thousand watched companies (a zip of ~1.5 GB of JSON a day, perhaps 150 MB zipped,
 * size unverified; against 24 reads of 6–10 kB per company a day). But changes would show up to
 * a day late instead of within DETECTION_INTERVAL_SECONDS (1 h by default); the dump holds the
 * companies "in the trade register or pending", so a company struck off may just vanish from it
 * where a re-read says "Lakannut"; and a daily file is a new kind of change source (neither feed
 * nor stream). At our politeness (120 reads a minute) re-reads serve about 7,000 watched
 * companies an hour: past that many, the dump is the way.
 */
export const FI_CHANGE_DETECTION: ChangeDetectionPlan = {
  mode: () => 'schedule',
  readEndpoint: () => 'API',
  readme: {
    how: 'Each watched company re-read once per interval (`/companies?businessId=`, one request)',
    credentials: 'none',
    delay: 'up to DETECTION_INTERVAL_SECONDS (default 1 h)',
  },
};
