import type { ChangeDetectionPlan } from '../change-detection';

/** Canada: scheduled re-reads (Corporations Canada publishes no change feed). */
export const CA_CHANGE_DETECTION: ChangeDetectionPlan = {
  mode: () => 'schedule',
  officers: (settings) => (settings.credentials.API_KEY ? 'reread' : null),
  readEndpoint: (settings) => (settings.credentials.API_KEY ? 'GATEWAY' : 'API'),
  readme: {
    how: 'Each watched corporation re-read once per interval (corporation JSON, one request)',
    credentials: 'none',
    delay: 'up to DETECTION_INTERVAL_SECONDS (default 1 h)',
  },
};
