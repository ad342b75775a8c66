import type { ChangeDetectionPlan } from '../change-detection';
import { GbFilingHistory } from './gb-filing-history';
import { GbStream } from './gb-stream';

/**
 * Great Britain: with a stream key, the companies, officers and filings streams; without one,
 * scheduled re-reads of the profile and the officers (no filings: nothing reads them then).
 */
export const GB_CHANGE_DETECTION: ChangeDetectionPlan = {
  mode: (settings) => (settings.credentials.STREAM_KEY ? 'stream' : 'schedule'),
  readEndpoint: (settings) => (settings.credentials.API_KEY ? 'API' : 'WEB'),
  createStream: (deps) => new GbStream(deps, 'companies'),
  extraStreams: {
    officers: (deps) => new GbStream(deps, 'officers'),
    filings: (deps) => new GbStream(deps, 'filings'),
  },
  officers: (settings) => (settings.credentials.STREAM_KEY ? 'stream' : 'reread'),
  filings: (settings) => Boolean(settings.credentials.STREAM_KEY),
  // The filings of a gap in the stream, read from the Public Data API (it needs the API key).
  filingHistory: (deps) =>
    deps.settings.credentials.STREAM_KEY && deps.settings.credentials.API_KEY ? new GbFilingHistory(deps) : null,
  readme: {
    how: 'With a stream key: the streaming API companies, officers and filings streams, each resumed from its stored timepoint, reconnected with backoff; a company event is a whole profile, an officer event a whole appointment, a filing event a whole filing (no re-read); the officer list is read with the baseline; after a gap in a stream (a timepoint too old) the watched companies are re-read, and with REGISTER_GB_API_KEY their filings of the gap are read from the filing history. Without: each watched company and its officers re-read once per interval (API with REGISTER_GB_API_KEY, else the website); no filing events',
    credentials: '`REGISTER_GB_STREAM_KEY` for the streams (optional)',
    delay: 'seconds with the streams; up to DETECTION_INTERVAL_SECONDS (default 1 h) with re-reads',
  },
};
