import { compactNumber, IdentifierMatch, IdentifierRecognizer, luhnValid } from '../identifier';

/** Business Number (CRA) BN9: 9 digits, the last a Luhn check digit. */
export function isValidBn9(digits: string): boolean {
  return /^\d{9}$/.test(digits) && luhnValid(digits);
}

const BN_PREFIX = /^BN9?[\s.:#-]*(?=\d)/i;
// BN15 = BN9 + a 2-letter program account (RC, RT, RP, …) + a 4-digit reference.
const BN15 = /^(\d{9})([A-Z]{2})(\d{4})$/;

/**
 * Recognises a Canadian federal corporation number (up to 8 digits, old ones shown "NNNNNN-N";
 * format only: its check digit algorithm is not published), a Business Number BN9 (Luhn) or a
 * BN15 program account (→ its BN9).
 */
export const recognizeCaIdentifier: IdentifierRecognizer = (query: string): IdentifierMatch => {
  const trimmed = query.trim();
  const hasBnPrefix = BN_PREFIX.test(trimmed);
  const compact = compactNumber(trimmed.replace(BN_PREFIX, '')).toUpperCase();

  const bn15 = BN15.exec(compact);
  if (bn15) {
    if (!isValidBn9(bn15[1])) return checkDigitWrong(trimmed);
    return { kind: 'number', registrationNumber: bn15[1], scheme: 'bn9' };
  }
  if (!/^\d+$/.test(compact)) return { kind: 'name' };
  if (compact.length === 9) {
    if (!isValidBn9(compact)) return checkDigitWrong(trimmed);
    return { kind: 'number', registrationNumber: compact, scheme: 'bn9' };
  }
  if (!hasBnPrefix && compact.length <= 8) {
    // Zero-filled forms ("000100-7") name the same corporation as "1007".
    const number = compact.replace(/^0+/, '');
    if (number === '') return { kind: 'invalid', message: `"${trimmed}" is not a corporation number.` };
    return { kind: 'number', registrationNumber: number, scheme: 'corporation_number' };
  }
  if (!hasBnPrefix) return { kind: 'name' }; // longer bare numbers: no Canadian format, maybe a name
  return {
    kind: 'invalid',
    message: `A Business Number has 9 digits (BN9) or 9 digits, 2 letters and 4 digits (BN15); "${trimmed}" does not.`,
  };
};

function checkDigitWrong(query: string): IdentifierMatch {
  return {
    kind: 'invalid',
    message: `"${query}" is not a valid Business Number: its check digit is wrong (Luhn check failed).`,
  };
}
