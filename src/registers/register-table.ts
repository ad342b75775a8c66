import { AU_DEFINITION } from './au/au.definition';
import { CA_DEFINITION } from './ca/ca.definition';
import { DK_DEFINITION } from './dk/dk.definition';
import { FR_DEFINITION } from './fr/fr.definition';
import { GB_DEFINITION } from './gb/gb.definition';
import { NO_DEFINITION } from './no/no.definition';
import { COUNTRY_CODES, CountryCode, RegisterDefinition } from './register-definition';

export * from './register-definition';

/**
 * THE register table as data. `/registers`, `/status`, search routing, the MCP tool
 * descriptions, configuration (every REGISTER_<CC>_* variable) and the README's coverage
 * table are all derived from it; each register's code (connector, identifiers, bulk files,
 * change feed) is in `registers.ts`, keyed the same way. The two are apart because
 * configuration and the HTTP client factory read this table, and the connectors depend on
 * them: one record holding both would be an import cycle. Facts come from shared/registers-*.md.
 */
export const REGISTER_DEFINITIONS: Record<CountryCode, RegisterDefinition> = {
  GB: GB_DEFINITION,
  AU: AU_DEFINITION,
  CA: CA_DEFINITION,
  FR: FR_DEFINITION,
  DK: DK_DEFINITION,
  NO: NO_DEFINITION,
};

/** The registers in the order of COUNTRY_CODES. */
export const REGISTER_TABLE: readonly RegisterDefinition[] = COUNTRY_CODES.map((cc) => REGISTER_DEFINITIONS[cc]);

const BY_COUNTRY = new Map<string, RegisterDefinition>(REGISTER_TABLE.map((r) => [r.country, r]));

export function findRegister(country: string): RegisterDefinition | undefined {
  return BY_COUNTRY.get(country.toUpperCase());
}

export function isCountryCode(value: string): value is CountryCode {
  return BY_COUNTRY.has(value);
}
