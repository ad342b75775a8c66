import type { ChangeDetectionPlan } from '../change-detection';

/** Australia: scheduled re-reads (ABN Lookup's JSON services have no change feed). */
export const AU_CHANGE_DETECTION: ChangeDetectionPlan = {
  mode: () => 'schedule',
  readEndpoint: () => 'API',
  readme: {
    how: 'Each watched ABN re-read once per interval (AbnDetails, one request)',
    credentials: '`REGISTER_AU_GUID` (as for reads)',
    delay: 'up to DETECTION_INTERVAL_SECONDS (default 1 h)',
  },
};
