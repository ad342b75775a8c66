import type { CountryCode } from '../../../registers/registers';

/** The one feed (or stream) of a register: the key of its cursor row. */
export function feedName(country: CountryCode): string {
  return `${country}:changes`;
}
