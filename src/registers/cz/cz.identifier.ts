import { compactNumber, IdentifierMatch, IdentifierRecognizer } from '../identifier';

const WEIGHTS = [8, 7, 6, 5, 4, 3, 2];

/**
 * The check digit of an IČO (shared/registers-next.md §2, after python-stdnum `cz/ico.py`):
 * r = weighted sum of the first seven digits (8,7,6,5,4,3,2) mod 11, check = (11 − r) mod 10.
 * The two edge cases fall out of the formula: r = 0 gives 1, r = 1 gives 0.
 */
export function icoCheckDigit(firstSeven: string): number {
  let sum = 0;
  for (let i = 0; i < 7; i++) sum += Number(firstSeven[i]) * WEIGHTS[i];
  return (11 - (sum % 11)) % 10;
}

export function isValidIco(digits: string): boolean {
  return /^\d{8}$/.test(digits) && icoCheckDigit(digits) === Number(digits[7]);
}

// How Czechs label the number ("IČO", "IČ:", "ICO") or its VAT form ("DIČ"); a legal person's DIČ is "CZ" + IČO.
const LABEL = /^(?:I[ČC]O?|DI[ČC])[\s.:#-]*(?=\w)/i;
const VAT = /^CZ[\s.-]*(?=\d)/i;

/**
 * Czech IČO: 8 digits, leading zeros significant (ARES rejects a 7-digit IČO with
 * CHYBA_VSTUPU rather than padding it, so neither do we). Separators are allowed
 * ("270 74 358"), so are the labels "IČO"/"IČ" and the VAT form "CZ27074358".
 * A bare number of another length is a name ("1508"), except 7 digits — the usual IČO
 * with its leading zero dropped — and anything labelled, which are mistyped IČOs.
 */
export const recognizeCzIdentifier: IdentifierRecognizer = (query: string): IdentifierMatch => {
  const trimmed = query.trim();
  const labelled = LABEL.test(trimmed);
  const unlabelled = trimmed.replace(LABEL, '');
  const vat = VAT.test(unlabelled);
  const digits = compactNumber(unlabelled.replace(VAT, ''));
  if (!/^\d+$/.test(digits)) return { kind: 'name' };
  if (digits.length !== 8) {
    if (vat && (digits.length === 9 || digits.length === 10)) {
      return {
        kind: 'invalid',
        message: `"${trimmed}" is the VAT number (DIČ) of a natural person, made from a birth number, not an IČO; search by the IČO or the name.`,
      };
    }
    if (!labelled && !vat && digits.length !== 7) return { kind: 'name' };
    const padded =
      digits.length === 7 && isValidIco(`0${digits}`) ? ` If a leading zero was left out: 0${digits}.` : '';
    return {
      kind: 'invalid',
      message: `A Czech IČO has 8 digits, leading zeros included; "${trimmed}" has ${digits.length}.${padded}`,
    };
  }
  if (!isValidIco(digits)) {
    return {
      kind: 'invalid',
      message: `${digits} is not a valid Czech IČO: its check digit (the last digit) is wrong.`,
    };
  }
  return { kind: 'number', registrationNumber: digits, scheme: 'ico' };
};
