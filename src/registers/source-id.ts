import { LEI_DEFINITION } from './lei/lei.definition';
import type { RegisterEndpoint } from './register-definition';
import { COUNTRY_CODES, type CountryCode, REGISTERS } from './registers';

/**
 * GLEIF's LEI index: read through the register HTTP client, probed like a register, but no
 * country's register (not in REGISTERS, not a CountryCode, no search, no fallback dataset).
 */
export const LEI_INDEX = 'LEI' as const;

/**
 * What the register HTTP client, the breaker, the probes and the status tables are keyed by:
 * a country's register, or the LEI index.
 */
export type SourceId = CountryCode | typeof LEI_INDEX;

/** The endpoints (base URL defaults, politeness) of a source, by PURPOSE. */
export function sourceEndpoints(source: SourceId): Readonly<Record<string, RegisterEndpoint>> {
  return source === LEI_INDEX ? LEI_DEFINITION.endpoints : REGISTERS[source].definition.endpoints;
}

/** Every source in table order, the LEI index last: what is probed and has a status. */
export const SOURCE_IDS = [...COUNTRY_CODES, LEI_INDEX] as [SourceId, ...SourceId[]];
