import type { ChangeDetectionPlan } from '../change-detection';
import { FrInseeFeed } from './fr-insee-feed';

/**
 * France: with an INSEE key, INSEE's query on the last processing date since the last run;
 * without one, each watched unit re-read once per interval from the recherche-entreprises
 * mirror, its events marked `source_mode: mirror` (never `live`).
 */
export const FR_CHANGE_DETECTION: ChangeDetectionPlan = {
  mode: (settings) => (settings.credentials.API_KEY ? 'feed' : 'schedule'),
  officers: (settings) => (settings.credentials.API_KEY ? null : 'reread'),
  readEndpoint: (settings) => (settings.credentials.API_KEY ? 'API' : 'MIRROR'),
  createFeed: (deps) => new FrInseeFeed(deps),
  readme: {
    how: 'With an INSEE key: `/siret?q=dateDernierTraitementUniteLegale:[last run TO *] …` for head offices, polled; each hit is the whole record (no re-read). Without: each watched unit re-read once per interval from the recherche-entreprises mirror, events marked `source_mode: mirror`',
    credentials: '`REGISTER_FR_API_KEY` (INSEE) for official detection; without it, mirror reads',
    delay:
      'the next poll after INSEE processes the change (INSEE updates daily); up to DETECTION_INTERVAL_SECONDS from the mirror',
  },
};
