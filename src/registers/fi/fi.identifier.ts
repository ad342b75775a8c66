import type { IdentifierMatch, IdentifierRecognizer } from '../identifier';

const WEIGHTS = [7, 9, 10, 5, 8, 4, 2];

/** A business ID as PRH keys it: seven digits, a dash, the check digit. */
export const BUSINESS_ID = /^\d{7}-\d$/;

/**
 * The check digit of a Y-tunnus (mod 11, weights 7,9,10,5,8,4,2 on the first seven digits:
 * remainder 0 gives 0, otherwise 11 − remainder), or null when the remainder is 1: no digit
 * can complete such a number, so it is never issued (python-stdnum `stdnum/fi/alv.py`).
 */
export function businessIdCheckDigit(firstSeven: string): number | null {
  let sum = 0;
  for (let i = 0; i < 7; i++) sum += Number(firstSeven[i]) * WEIGHTS[i];
  const remainder = sum % 11;
  if (remainder === 1) return null;
  return remainder === 0 ? 0 : 11 - remainder;
}

/** True for `1234567-8` with the right check digit. */
export function isValidBusinessId(id: string): boolean {
  return BUSINESS_ID.test(id) && businessIdCheckDigit(id.slice(0, 7)) === Number(id[8]);
}

// The VAT number (FI + 8 digits), the EUID (FIFPRO.1234567-8) and the label Finns write before it.
const LABEL = '(?:FIFPRO\\.|FI|Y-?TUNNUS:?)';
const NUMBER = new RegExp(`^${LABEL}?(\\d{7})-?(\\d)$`);
// Digits after an unambiguous label are a mistyped business ID; after a bare "FI" they may be a name.
const LABELLED = /^(?:FIFPRO\.|Y-?TUNNUS:?)\d[\d-]*$/;

/**
 * Finnish business ID (Y-tunnus): `0112038-9`, also typed without the dash (`01120389`), with
 * spaces (`0112038 9`), as the VAT number (`FI01120389`), the EUID (`FIFPRO.0112038-9`) or
 * after its label (`Y-tunnus: 0112038-9`). The dash may only stand before the check digit:
 * other numbers (`2012-03-08`, `1234567`) are names. Normalised to `1234567-8`.
 */
export const recognizeFiIdentifier: IdentifierRecognizer = (query: string): IdentifierMatch => {
  const compact = query
    .trim()
    .replace(/[\s\u00a0\u202f]/g, '')
    .replace(/[‐‑–—]/g, '-')
    .toUpperCase();
  const match = NUMBER.exec(compact);
  if (!match) {
    if (!LABELLED.test(compact)) return { kind: 'name' };
    return {
      kind: 'invalid',
      message: `A Finnish business ID (Y-tunnus) is seven digits, a dash and a check digit, like 0112038-9; "${query.trim()}" is not.`,
    };
  }
  const [, firstSeven, check] = match;
  const id = `${firstSeven}-${check}`;
  const expected = businessIdCheckDigit(firstSeven);
  if (expected === null) {
    return {
      kind: 'invalid',
      message: `${id} is not a valid Finnish business ID (Y-tunnus): no business ID begins with ${firstSeven}, as its check digit would be 10.`,
    };
  }
  if (expected !== Number(check)) {
    return {
      kind: 'invalid',
      message: `${id} is not a valid Finnish business ID (Y-tunnus): its check digit should be ${expected}.`,
    };
  }
  return { kind: 'number', registrationNumber: id, scheme: 'ytunnus' };
};
