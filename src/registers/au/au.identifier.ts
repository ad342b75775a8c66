import { compactNumber, IdentifierMatch, IdentifierRecognizer } from '../identifier';

const ABN_WEIGHTS = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19];
const ACN_WEIGHTS = [8, 7, 6, 5, 4, 3, 2, 1];

/** ABN: 11 digits; subtract 1 from the first digit, weight 10,1,3,…,19, sum divisible by 89. */
export function isValidAbn(digits: string): boolean {
  if (!/^\d{11}$/.test(digits)) return false;
  const sum = ABN_WEIGHTS.reduce((acc, w, i) => acc + w * (Number(digits[i]) - (i === 0 ? 1 : 0)), 0);
  return sum % 89 === 0;
}

/** ACN: 9 digits; the 9th is (10 − Σ d·(8,7,…,1) mod 10) mod 10 over the first 8. */
export function isValidAcn(digits: string): boolean {
  if (!/^\d{9}$/.test(digits)) return false;
  const sum = ACN_WEIGHTS.reduce((acc, w, i) => acc + w * Number(digits[i]), 0);
  return (10 - (sum % 10)) % 10 === Number(digits[8]);
}

const PREFIX = /^(ABN|ACN)[\s.:#-]*(?=\d)/i;

/**
 * Recognises an Australian Business Number (11 digits) or an Australian Company Number
 * (9 digits), typed with or without spaces ("26 154 482 283") and an "ABN"/"ACN" label.
 */
export const recognizeAuIdentifier: IdentifierRecognizer = (query: string): IdentifierMatch => {
  const trimmed = query.trim();
  const label = PREFIX.exec(trimmed)?.[1]?.toUpperCase() as 'ABN' | 'ACN' | undefined;
  const digits = compactNumber(trimmed.replace(PREFIX, ''));
  if (!/^\d+$/.test(digits)) return { kind: 'name' };

  const scheme = label ?? (digits.length === 11 ? 'ABN' : digits.length === 9 ? 'ACN' : undefined);
  if (scheme === 'ABN') {
    if (digits.length !== 11)
      return { kind: 'invalid', message: `An ABN has 11 digits; "${trimmed}" has ${digits.length}.` };
    if (!isValidAbn(digits)) {
      return {
        kind: 'invalid',
        message: `"${trimmed}" is not a valid ABN: its check digits are wrong (modulus-89 check failed).`,
      };
    }
    return { kind: 'number', registrationNumber: digits, scheme: 'abn' };
  }
  if (scheme === 'ACN') {
    if (digits.length !== 9)
      return { kind: 'invalid', message: `An ACN has 9 digits; "${trimmed}" has ${digits.length}.` };
    if (!isValidAcn(digits))
      return { kind: 'invalid', message: `"${trimmed}" is not a valid ACN: its check digit is wrong.` };
    return { kind: 'number', registrationNumber: digits, scheme: 'acn' };
  }
  // A bare number of another length may be a name ("1300"); only labelled numbers are checked.
  return { kind: 'name' };
};
