import { compactNumber, IdentifierMatch, IdentifierRecognizer, luhnValid } from '../identifier';

/** La Poste's SIREN: many of its SIRETs fail Luhn; INSEE accepts them when the digit sum is a multiple of 5. */
export const LA_POSTE_SIREN = '356000000';

export function isValidSiren(siren: string): boolean {
  return /^\d{9}$/.test(siren) && luhnValid(siren);
}

export function isValidSiret(siret: string): boolean {
  if (!/^\d{14}$/.test(siret)) return false;
  const siren = siret.slice(0, 9);
  if (!isValidSiren(siren)) return false;
  if (luhnValid(siret)) return true;
  if (siren !== LA_POSTE_SIREN) return false;
  const digitSum = [...siret].reduce((sum, d) => sum + Number(d), 0);
  return digitSum % 5 === 0;
}

/** The 2-digit key of a French VAT number: (12 + 3 × (SIREN mod 97)) mod 97. */
export function frenchVatKey(siren: string): string {
  return String((12 + 3 * (Number(siren) % 97)) % 97).padStart(2, '0');
}

/**
 * French identifiers, after removing spaces, dots, dashes and slashes:
 * - SIREN: 9 digits, Luhn;
 * - SIRET: 14 digits = SIREN + NIC, Luhn over all 14 (La Poste exception), recognised as its SIREN;
 * - intra-community VAT number: "FR" + 2-digit key + SIREN, key checked.
 * Any other string is a name.
 */
export const recognizeFrIdentifier: IdentifierRecognizer = (query: string): IdentifierMatch => {
  const compact = compactNumber(query.trim()).toUpperCase();
  if (/^\d{9}$/.test(compact)) {
    if (!isValidSiren(compact)) return invalid(`${compact} is not a valid SIREN: its check digit (Luhn) is wrong.`);
    return { kind: 'number', registrationNumber: compact, scheme: 'siren' };
  }
  if (/^\d{14}$/.test(compact)) {
    if (!isValidSiret(compact)) return invalid(`${compact} is not a valid SIRET: its check digit (Luhn) is wrong.`);
    return { kind: 'number', registrationNumber: compact.slice(0, 9), scheme: 'siret' };
  }
  const vat = /^FR(\d{2})(\d{9})$/.exec(compact);
  if (vat) {
    const [, key, siren] = vat;
    if (!isValidSiren(siren))
      return invalid(`${compact} is not a valid French VAT number: the SIREN in it has a wrong check digit.`);
    if (frenchVatKey(siren) !== key)
      return invalid(`${compact} is not a valid French VAT number: its key (the two digits after FR) is wrong.`);
    return { kind: 'number', registrationNumber: siren, scheme: 'vat' };
  }
  return { kind: 'name' };
};

function invalid(message: string): IdentifierMatch {
  return { kind: 'invalid', message };
}
