/**
 * The Legal Entity Identifier (ISO 17442): 20 characters, the first 18 letters A–Z or digits, the
 * last two check digits computed by ISO 7064 MOD 97-10 over the whole code with letters read as
 * numbers (A = 10 … Z = 35): the number so formed is 1 modulo 97 (shared/registers-next.md §4,
 * after python-stdnum `stdnum/lei.py`).
 */
export const LEI_LENGTH = 20;

export type LeiValidation = { valid: true; lei: string } | { valid: false; message: string };

/** The remainder modulo 97 of the number a string of A–Z and 0–9 stands for (letters as 10…35). */
function mod97(code: string): number {
  let remainder = 0;
  for (const ch of code) {
    const value = parseInt(ch, 36);
    remainder = (remainder * (value < 10 ? 10 : 100) + value) % 97;
  }
  return remainder;
}

/** The two check digits of an LEI whose first 18 characters are given (already upper case). */
export function leiCheckDigits(first18: string): string {
  if (!/^[A-Z0-9]{18}$/.test(first18)) throw new RangeError('leiCheckDigits needs 18 characters A–Z or 0–9');
  return String(98 - mod97(`${first18}00`)).padStart(2, '0');
}

/**
 * An LEI as stored (upper case, no spaces) with right check digits. The digits are compared with
 * the computed ones rather than testing "mod 97 = 1": that test also passes 00, 01 and 99 in place
 * of 97, 98 and 02, which ISO 7064 never issues.
 */
export function isValidLei(value: string): boolean {
  return /^[A-Z0-9]{18}[0-9]{2}$/.test(value) && value.slice(18) === leiCheckDigits(value.slice(0, 18));
}

/** Whether the whole 20-character code is 1 modulo 97 (the check as ISO 7064 states it). */
export function leiRemainder(value: string): number {
  return mod97(value);
}

/**
 * Validates an LEI typed by a person: surrounding spaces are dropped and lower case is read as
 * upper case. A wrong LEI gets one plain sentence saying what is wrong with it.
 */
export function validateLei(input: string): LeiValidation {
  const lei = input.replace(/^[\s\u00a0\u202f]+|[\s\u00a0\u202f]+$/g, '').toUpperCase();
  const shown = lei.length > 40 ? `${lei.slice(0, 40)}…` : lei;
  if (lei.length === 0) return invalid('An LEI is needed: 20 letters and digits.');
  const stray = /[^A-Z0-9]/u.exec(lei);
  if (stray) {
    const what = /\s/.test(stray[0]) ? 'a space' : `“${stray[0]}”`;
    return invalid(`${shown} is not a valid LEI: an LEI holds only letters A–Z and digits 0–9, and this has ${what}.`);
  }
  if (lei.length !== LEI_LENGTH)
    return invalid(`${shown} is not a valid LEI: an LEI has ${LEI_LENGTH} characters, and this has ${lei.length}.`);
  if (!/^[0-9]{2}$/.test(lei.slice(18)))
    return invalid(`${lei} is not a valid LEI: its last two characters are check digits and must be digits.`);
  const expected = leiCheckDigits(lei.slice(0, 18));
  if (lei.slice(18) !== expected) return invalid(`${lei} is not a valid LEI: its check digits should be ${expected}.`);
  return { valid: true, lei };
}

function invalid(message: string): LeiValidation {
  return { valid: false, message };
}
