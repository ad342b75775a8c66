import { AU_REGISTER } from './au/au.register';
import { CA_REGISTER } from './ca/ca.register';
import { DK_REGISTER } from './dk/dk.register';
import { FR_REGISTER } from './fr/fr.register';
import { GB_REGISTER } from './gb/gb.register';
import { NO_REGISTER } from './no/no.register';
import type { Register } from './register';
import { COUNTRY_CODES, CountryCode } from './register-table';

/**
 * THE registers, code and all, keyed by country: adding a register is adding its folder and
 * one row here (and its definition in `register-table.ts`); the compiler checks that every
 * country has one.
 */
export const REGISTERS: Record<CountryCode, Register> = {
  GB: GB_REGISTER,
  AU: AU_REGISTER,
  CA: CA_REGISTER,
  FR: FR_REGISTER,
  DK: DK_REGISTER,
  NO: NO_REGISTER,
};

/** The registers in the order of COUNTRY_CODES. */
export const REGISTER_LIST: readonly Register[] = COUNTRY_CODES.map((cc) => REGISTERS[cc]);
