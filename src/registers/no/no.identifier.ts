import { compactNumber, IdentifierMatch, IdentifierRecognizer } from '../identifier';

const WEIGHTS = [3, 2, 7, 6, 5, 4, 3, 2];

/**
 * The check digit of an organisasjonsnummer (mod 11, weights 3,2,7,6,5,4,3,2 on the first
 * eight digits), or null when no digit can be one (11 − remainder = 10: such numbers are
 * never issued).
 */
export function orgnrCheckDigit(firstEight: string): number | null {
  let sum = 0;
  for (let i = 0; i < 8; i++) sum += Number(firstEight[i]) * WEIGHTS[i];
  const remainder = sum % 11;
  const check = remainder === 0 ? 0 : 11 - remainder;
  return check === 10 ? null : check;
}

export function isValidOrgnr(digits: string): boolean {
  return /^\d{9}$/.test(digits) && orgnrCheckDigit(digits.slice(0, 8)) === Number(digits[8]);
}

/**
 * Norwegian organisasjonsnummer: 9 digits, separators allowed ("923 609 016", "923.609.016"),
 * also in VAT form with an "NO" prefix and/or "MVA" suffix ("NO 923 609 016 MVA").
 * Anything else (other lengths, letters) is a name.
 */
export const recognizeNoIdentifier: IdentifierRecognizer = (query: string): IdentifierMatch => {
  const compact = compactNumber(query.trim()).toUpperCase();
  const match = /^(?:NO)?(\d{9})(?:MVA)?$/.exec(compact);
  if (!match) return { kind: 'name' };
  const digits = match[1];
  if (!isValidOrgnr(digits)) {
    return {
      kind: 'invalid',
      message: `${digits} is not a valid Norwegian organisation number: its check digit (the last digit) is wrong.`,
    };
  }
  return { kind: 'number', registrationNumber: digits, scheme: 'orgnr' };
};
