import { AU_REGISTER } from './au/au.register';
import { CA_REGISTER } from './ca/ca.register';
import { CZ_REGISTER } from './cz/cz.register';
import { DK_REGISTER } from './dk/dk.register';
import { FI_REGISTER } from './fi/fi.register';
import { FR_REGISTER } from './fr/fr.register';
import { GB_REGISTER } from './gb/gb.register';
import { NO_REGISTER } from './no/no.register';
import { PL_REGISTER } from './pl/pl.register';
import type { Register } from './register';
import type { RegisterDefinition } from './register-definition';

/**
 * THE registers, keyed by country: `/registers`, `/status`, search routing, the MCP tools,
 * configuration, detection, the simulator and the docs' tables all come from here. Adding a
 * register is its folder and one line here.
 */
export const REGISTERS = {
  GB: GB_REGISTER,
  AU: AU_REGISTER,
  CA: CA_REGISTER,
  FR: FR_REGISTER,
  DK: DK_REGISTER,
  NO: NO_REGISTER,
  FI: FI_REGISTER,
  CZ: CZ_REGISTER,
  PL: PL_REGISTER,
} satisfies Record<string, Register>;

export type CountryCode = keyof typeof REGISTERS;
/** The countries in the order of the table; a tuple type for zod's enums. */
export const COUNTRY_CODES = Object.keys(REGISTERS) as [CountryCode, ...CountryCode[]];
export const REGISTER_LIST: readonly Register[] = COUNTRY_CODES.map((cc) => REGISTERS[cc]);
/** The table rows (data only) in the order of COUNTRY_CODES. */
export const REGISTER_TABLE: readonly RegisterDefinition[] = REGISTER_LIST.map((r) => r.definition);

export function isCountryCode(value: string): value is CountryCode {
  return Object.prototype.hasOwnProperty.call(REGISTERS, value);
}

/** The register of a country code in any case; undefined when none (never a prototype's property). */
export function findRegister(country: string): RegisterDefinition | undefined {
  const cc = country.toUpperCase();
  return isCountryCode(cc) ? REGISTERS[cc].definition : undefined;
}

/** The countries as a sentence: "GB, AU, CA, FR, DK or NO". */
export function countryList(conjunction = 'or'): string {
  return `${COUNTRY_CODES.slice(0, -1).join(', ')} ${conjunction} ${COUNTRY_CODES[COUNTRY_CODES.length - 1]}`;
}

export type * from './register-definition';
