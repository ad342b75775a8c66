import type { ChangeDetectionPlan } from '../change-detection';
import { GbCompaniesStream } from './gb-companies-stream';

/** Great Britain: the companies stream with a stream key; scheduled re-reads without one. */
export const GB_CHANGE_DETECTION: ChangeDetectionPlan = {
  mode: (settings) => (settings.credentials.STREAM_KEY ? 'stream' : 'schedule'),
  readEndpoint: (settings) => (settings.credentials.API_KEY ? 'API' : 'WEB'),
  createStream: (deps) => new GbCompaniesStream(deps),
  readme: {
    how: 'With a stream key: the streaming API companies stream, resumed from the stored timepoint, reconnected with backoff; each event is a whole profile (no re-read). Without: each watched company re-read once per interval (API with REGISTER_GB_API_KEY, else the website)',
    credentials: '`REGISTER_GB_STREAM_KEY` for the stream (optional)',
    delay: 'seconds with the stream; up to DETECTION_INTERVAL_SECONDS (default 1 h) with re-reads',
  },
};
