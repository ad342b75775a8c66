import { compactNumber, IdentifierMatch, IdentifierRecognizer } from '../identifier';

/**
 * Two-letter prefixes of Companies House numbers (officers bulk-file spec as quoted in
 * shared/registers-gb-fr-no.md): SC Scotland, NI Northern Ireland, OC/SO/NC LLPs, LP/SL/NL
 * limited partnerships, FC/SF/NF overseas companies, GE/GS/GN EEIGs, SE/ES/EN Societas
 * Europaea, ZC/SZ/NZ unregistered companies, AC/SA/NA assurance companies, OE overseas
 * entities, and IP SP IC SI NP NV RC SR NR NO (little data held). "R" + 7 digits (old NI)
 * is matched separately.
 */
export const GB_COMPANY_NUMBER_PREFIXES: ReadonlySet<string> = new Set([
  'SC',
  'NI',
  'OC',
  'SO',
  'NC',
  'LP',
  'SL',
  'NL',
  'FC',
  'SF',
  'NF',
  'GE',
  'GS',
  'GN',
  'SE',
  'ES',
  'EN',
  'ZC',
  'SZ',
  'NZ',
  'AC',
  'SA',
  'NA',
  'OE',
  'IP',
  'SP',
  'IC',
  'SI',
  'NP',
  'NV',
  'RC',
  'SR',
  'NR',
  'NO',
]);

/**
 * Normalises a GB company number (upper case, numeric numbers left-padded to 8), or null
 * when the string is not number-shaped.
 */
export function normaliseGbCompanyNumber(value: string): string | null {
  const compact = compactNumber(value.trim()).toUpperCase();
  if (/^\d{1,8}$/.test(compact)) return compact.padStart(8, '0');
  if (/^[A-Z]{2}\d{6}$/.test(compact) && GB_COMPANY_NUMBER_PREFIXES.has(compact.slice(0, 2))) return compact;
  if (/^R\d{7}$/.test(compact)) return compact;
  return null;
}

/**
 * Companies House numbers carry no check digit, so a query is a number only when its shape
 * says so, after removing spaces, dots, dashes and slashes and upper-casing:
 * - 1 to 8 digits and nothing else (leading zeros are often dropped: "49045" = 00049045);
 * - a known two-letter prefix followed by exactly 6 digits ("SC243739", "oe 001962");
 * - "R" followed by exactly 7 digits.
 * Everything else is a name: any other letter, any digit count above 8, an unknown prefix.
 * So "3M", "7 Eleven", "123 Ltd" and "1066 Limited" are names, while a query of digits only
 * ("1066") is read as a company number; an all-digit company name is found by adding its
 * suffix. Nothing is ever 'invalid': without a checksum a wrong number cannot be told from
 * a right one offline.
 */
export const recognizeGbIdentifier: IdentifierRecognizer = (query: string): IdentifierMatch => {
  const number = normaliseGbCompanyNumber(query);
  return number === null ? { kind: 'name' } : { kind: 'number', registrationNumber: number, scheme: 'company_number' };
};
