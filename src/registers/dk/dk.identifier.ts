import { compactNumber, IdentifierMatch, IdentifierRecognizer } from '../identifier';

const CVR_WEIGHTS = [2, 7, 6, 5, 4, 3, 2, 1];

/** CVR number: 8 digits whose weighted sum (2,7,6,5,4,3,2,1) is divisible by 11. */
export function isValidCvr(digits: string): boolean {
  if (!/^\d{8}$/.test(digits)) return false;
  const sum = CVR_WEIGHTS.reduce((acc, w, i) => acc + w * Number(digits[i]), 0);
  return sum % 11 === 0;
}

// "DK" is the VAT form (DK + CVR); "CVR", "CVR-nr." and "CVR nr:" are how Danes label it.
const PREFIX = /^(?:DK|CVR(?:[\s.-]*nr)?)[\s.:#-]*(?=\d)/i;

/** Recognises a Danish CVR number (also typed "DK 25052943", "CVR-nr. 25 05 29 43"). */
export const recognizeDkIdentifier: IdentifierRecognizer = (query: string): IdentifierMatch => {
  const trimmed = query.trim();
  const labelled = PREFIX.test(trimmed);
  const digits = compactNumber(trimmed.replace(PREFIX, ''));
  if (!/^\d+$/.test(digits)) return { kind: 'name' };
  if (digits.length !== 8) {
    // A bare number of another length may be a name ("1508"); a labelled one is a mistyped CVR.
    if (!labelled) return { kind: 'name' };
    return { kind: 'invalid', message: `A Danish CVR number has 8 digits; "${trimmed}" has ${digits.length}.` };
  }
  if (!isValidCvr(digits)) {
    return {
      kind: 'invalid',
      message: `"${trimmed}" is not a valid CVR number: its check digit is wrong (modulus-11 check failed).`,
    };
  }
  return { kind: 'number', registrationNumber: digits, scheme: 'cvr' };
};
