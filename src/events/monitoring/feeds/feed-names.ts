import type { ExtraSource } from '../../../registers/change-detection';
import type { CountryCode } from '../../../registers/registers';

/** Which feed or stream of a register: its main one (`changes`), or one beside it (GB `officers`, NO `roles`…). */
export type FeedSource = 'changes' | ExtraSource;

/** The key of a feed's (or stream's) cursor row: `GB:changes`, `GB:officers`, `NO:roles`… */
export function feedName(country: CountryCode, source: FeedSource = 'changes'): string {
  return `${country}:${source}`;
}
