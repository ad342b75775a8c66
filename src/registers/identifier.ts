/**
 * What a query is, decided offline before any request: a registration number in the
 * country's format (normalised for lookup), a number-shaped query whose check digit is
 * wrong, or a name.
 */
export type IdentifierMatch =
  | {
      kind: 'number';
      /** The number as the register keys it (for example the SIREN of a SIRET, zero-padded GB numbers). */
      registrationNumber: string;
      /** Which identifier was recognised: 'orgnr', 'siren', 'siret', 'company_number', 'cvr', 'abn', 'acn', 'bn9', 'corporation_number'… */
      scheme: string;
      /**
       * The register cannot be asked for this kind of number (KRS is read by KRS number only,
       * not by NIP or REGON): the fallback dataset answers, whatever the register's health,
       * and these sentences say so — `why` opens the answer's warning, `notFound` is the
       * lookup's 404 when the dataset has nothing either.
       */
      datasetOnly?: { why: string; notFound: string };
    }
  | { kind: 'invalid'; message: string }
  | { kind: 'name' };

export type IdentifierRecognizer = (query: string) => IdentifierMatch;

/** Removes the separators people type inside numbers: spaces (incl. no-break), dots, dashes, slashes. */
export function compactNumber(query: string): string {
  return query.replace(/[\s\u00a0\u202f.\-‐‑–—/]/g, '');
}

/** Luhn (mod 10) check over a string of digits: SIREN/SIRET, Canadian BN9. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}
