import type { IdentifierMatch } from './identifier';
import type { CountryCode } from './registers';
import { REGISTERS } from './registers';

/** Decides offline whether q is a registration number of the country, a malformed one, or a name. */
export function recognizeIdentifier(country: CountryCode, query: string): IdentifierMatch {
  return REGISTERS[country].recognizeIdentifier(query);
}

export type { IdentifierMatch } from './identifier';
