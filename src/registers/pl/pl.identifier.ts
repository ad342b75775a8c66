import { compactNumber, IdentifierMatch, IdentifierRecognizer } from '../identifier';

const NIP_WEIGHTS = [6, 5, 7, 2, 3, 4, 5, 6, 7];
const REGON9_WEIGHTS = [8, 9, 2, 3, 4, 5, 6, 7];
const REGON14_WEIGHTS = [2, 4, 8, 5, 0, 9, 7, 3, 6, 1, 2, 4, 8];

function weightedSum(digits: string, weights: number[]): number {
  return weights.reduce((sum, w, i) => sum + w * Number(digits[i]), 0);
}

/** NIP check digit: Σ weights·digits mod 11 over the first nine; null when that is 10 (never issued). */
export function nipCheckDigit(firstNine: string): number | null {
  const r = weightedSum(firstNine, NIP_WEIGHTS) % 11;
  return r === 10 ? null : r;
}

export function isValidNip(digits: string): boolean {
  return /^\d{10}$/.test(digits) && nipCheckDigit(digits) === Number(digits[9]);
}

/** REGON check digit of the 9- or 14-digit form: (Σ weights·digits mod 11) mod 10. */
export function regonCheckDigit(body: string): number {
  const weights = body.length === 8 ? REGON9_WEIGHTS : REGON14_WEIGHTS;
  return (weightedSum(body, weights) % 11) % 10;
}

/** A 9-digit REGON, or a 14-digit one (a local unit) whose first nine digits are a valid REGON too. */
export function isValidRegon(digits: string): boolean {
  if (/^\d{9}$/.test(digits)) return regonCheckDigit(digits.slice(0, 8)) === Number(digits[8]);
  if (/^\d{14}$/.test(digits))
    return isValidRegon(digits.slice(0, 9)) && regonCheckDigit(digits.slice(0, 13)) === Number(digits[13]);
  return false;
}

/**
 * KRS writes a 9-digit REGON padded with five zeros ("54577292400000"), a string that fails the
 * 14-digit check: such a value is the 9-digit REGON. Anything else is returned unchanged.
 */
export function unpadRegon(digits: string): string {
  return /^\d{9}0{5}$/.test(digits) && isValidRegon(digits.slice(0, 9)) && !isValidRegon(digits)
    ? digits.slice(0, 9)
    : digits;
}

/** The KRS number as the register keys it: ten digits, zero-padded. */
export function padKrs(digits: string): string {
  return digits.padStart(10, '0');
}

type Label = 'KRS' | 'NIP' | 'REGON';

/**
 * Polish identifiers, decided offline:
 * - KRS number (the register's key): 1–10 digits, typed with or without its leading zeros
 *   ("28860", "0000028860", "KRS 28860"); no check digit. Numbers are issued in sequence and
 *   far below 10^9, so a ten-digit KRS number always starts with 0.
 * - NIP (tax number): 10 digits with a check digit, typed with dashes ("774-000-14-54"), in EU
 *   VAT form ("PL7740001454") or labelled ("NIP 7740001454"). A NIP never starts with 0 (its
 *   first three digits name a tax office), which is what tells it from a zero-padded KRS number.
 * - REGON (statistical number): 9 or 14 digits with check digits; KRS's own padded form
 *   ("54577292400000") is read as the 9-digit REGON.
 * Unlabelled: 1–8 digits are a KRS number, 9 or 14 a REGON, 10 a KRS number when it starts with
 * 0 and a NIP otherwise. Anything else is a name.
 *
 * What a NIP or REGON query can be answered with: the KRS API looks entities up by KRS number
 * only; NIP and REGON are fields of the extract, not keys. A NIP/REGON match is therefore
 * `datasetOnly`: never sent to KRS (it would read it as a KRS number), it is looked for among
 * the other numbers of the fallback dataset's rows, and the sentences say so. KRS publishes no
 * bulk file, so only the rows of the bundled sample can answer today. NIP and REGON are not
 * resolved through another register (the VAT white list allows 100 searches a day per IP; GUS
 * BIR needs a key).
 */
export const recognizePlIdentifier: IdentifierRecognizer = (query: string): IdentifierMatch => {
  const compact = compactNumber(query.trim()).toUpperCase();
  const match = /^(?:(KRS|NIP|REGON|PL):?)?(\d{1,14})$/.exec(compact);
  if (!match) return { kind: 'name' };
  const digits = match[2];
  // "PL" is the EU VAT prefix of a NIP; with another length it is more likely part of a name.
  if (match[1] === 'PL' && digits.length !== 10) return { kind: 'name' };
  const label: Label | undefined = match[1] === 'PL' ? 'NIP' : (match[1] as Label | undefined);
  const scheme = label ?? unlabelledScheme(digits);
  if (!scheme) return { kind: 'name' };
  switch (scheme) {
    case 'KRS':
      return krs(digits);
    case 'NIP':
      return nip(digits);
    case 'REGON': {
      const result = regon(digits);
      // Nine digits with leading zeros that are no REGON: most likely a KRS number typed short of its padding.
      if (result.kind === 'invalid' && !label && digits.length === 9 && digits.startsWith('0'))
        return invalid(`${result.message} A KRS number is written with ten digits (for example 0000028860).`);
      return result;
    }
  }
};

function unlabelledScheme(digits: string): Label | null {
  if (digits.length <= 8) return 'KRS';
  if (digits.length === 9 || digits.length === 14) return 'REGON';
  if (digits.length === 10) return digits.startsWith('0') ? 'KRS' : 'NIP';
  return null;
}

function krs(digits: string): IdentifierMatch {
  if (digits.length > 10)
    return invalid(`${digits} is not a KRS number: a KRS number has at most ten digits (for example 0000028860).`);
  if (/^0+$/.test(digits)) return invalid(`${digits} is not a KRS number: KRS numbers start at 0000000001.`);
  if (digits.length === 10 && !digits.startsWith('0'))
    return invalid(
      `${digits} is not a KRS number: KRS numbers are written with leading zeros (for example 0000028860); a ten-digit number without one is a NIP.`,
    );
  return { kind: 'number', registrationNumber: padKrs(digits), scheme: 'krs' };
}

function nip(digits: string): IdentifierMatch {
  if (digits.length !== 10) return invalid(`${digits} is not a valid Polish NIP: a NIP has ten digits.`);
  if (nipCheckDigit(digits) === null)
    return invalid(
      `${digits} is not a valid Polish NIP: no NIP can start with these nine digits (no check digit fits).`,
    );
  if (!isValidNip(digits))
    return invalid(`${digits} is not a valid Polish NIP: its check digit (the last digit) is wrong.`);
  return { kind: 'number', registrationNumber: digits, scheme: 'nip', datasetOnly: notTheKey('NIP', digits) };
}

function regon(digits: string): IdentifierMatch {
  if (digits.length !== 9 && digits.length !== 14)
    return invalid(`${digits} is not a valid REGON: a REGON has 9 or 14 digits.`);
  const normalised = unpadRegon(digits);
  if (isValidRegon(normalised))
    return {
      kind: 'number',
      registrationNumber: normalised,
      scheme: 'regon',
      datasetOnly: notTheKey('REGON', normalised),
    };
  if (digits.length === 14 && !isValidRegon(digits.slice(0, 9)))
    return invalid(`${digits} is not a valid REGON: its first nine digits are not a valid REGON (wrong check digit).`);
  return invalid(`${digits} is not a valid REGON: its check digit (the last digit) is wrong.`);
}

/** What a NIP or REGON query is answered with: the fallback dataset, and these sentences. */
export function notTheKey(label: 'NIP' | 'REGON', number: string): { why: string; notFound: string } {
  return {
    why: `KRS is searched by KRS number only and cannot be asked for a ${label}: ${label} ${number} was looked for in the data this service holds`,
    notFound: `KRS is searched by KRS number only, and no KRS number was found for ${label} ${number} in the data this service holds.`,
  };
}

function invalid(message: string): IdentifierMatch {
  return { kind: 'invalid', message };
}
