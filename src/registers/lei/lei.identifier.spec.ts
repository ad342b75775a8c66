import fc from 'fast-check';
import { fixture } from '../../../test/support/fake-register';
import { isValidLei, leiCheckDigits, leiRemainder, validateLei } from './lei.identifier';

/** Every LEI in the recorded GLEIF answers: record ids, managing LOUs. */
function leisInFixtures(): string[] {
  const found = new Set<string>();
  for (const file of [
    'gleif-lei-record-21380068P1DRHMJ8KU70-shell-plc-gb-ra000585.json',
    'gleif-lei-record-5299001ERX0K10IZUL40-fraport-de.json',
    'gleif-lei-record-549300LBI3LRIZ2V8V66-lapsed-fund-pretty.json',
    'gleif-lei-records-filter-lei-12-hits.json',
  ]) {
    const text = fixture(`registers/lei/${file}`);
    for (const m of text.matchAll(/"(?:lei|id|managingLou)"\s*:\s*"([A-Z0-9]{20})"/g)) found.add(m[1]);
  }
  return [...found].sort();
}

const real = leisInFixtures();

describe('LEI check digits (ISO 17442, ISO 7064 MOD 97-10)', () => {
  it('computes the worked examples of registers-next.md', () => {
    expect(leiCheckDigits('21380068P1DRHMJ8KU')).toBe('70'); // Shell plc
    expect(leiRemainder('21380068P1DRHMJ8KU70')).toBe(1);
    expect(leiCheckDigits('5299001ERX0K10IZUL')).toBe('40'); // Fraport AG
    expect(leiRemainder('5299001ERX0K10IZUL40')).toBe(1);
  });

  it('finds the real LEIs of the recorded answers', () => {
    expect(real).toEqual(
      expect.arrayContaining(['21380068P1DRHMJ8KU70', '549300LBI3LRIZ2V8V66', '213800WAVVOPS85N2205']),
    );
    expect(real.length).toBeGreaterThanOrEqual(15);
  });

  it.each(real)('accepts the real LEI %s', (lei) => {
    expect(isValidLei(lei)).toBe(true);
    expect(validateLei(lei)).toEqual({ valid: true, lei });
    expect(leiCheckDigits(lei.slice(0, 18))).toBe(lei.slice(18));
  });

  it('gives every 18-character body exactly one pair of check digits, from 02 to 98', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Z0-9]{18}$/), fc.integer({ min: 0, max: 99 }), (body, other) => {
        const digits = leiCheckDigits(body);
        expect(Number(digits)).toBeGreaterThanOrEqual(2);
        expect(Number(digits)).toBeLessThanOrEqual(98);
        expect(isValidLei(body + digits)).toBe(true);
        const wrong = String(other).padStart(2, '0');
        if (wrong !== digits) {
          expect(isValidLei(body + wrong)).toBe(false);
          expect(validateLei(body + wrong)).toEqual({
            valid: false,
            message: `${body}${wrong} is not a valid LEI: its check digits should be ${digits}.`,
          });
        }
      }),
    );
  });

  it.each([
    ['97', '00'],
    ['98', '01'],
    ['02', '99'],
  ])('refuses %s written as %s, which passes "mod 97 = 1" but is never issued', (right, alias) => {
    // The first body, counting in base 36, whose computed check digits are the right ones.
    const bodyOf = (n: number) => n.toString(36).toUpperCase().padStart(18, '0');
    let n = 0;
    while (leiCheckDigits(bodyOf(n)) !== right) n++;
    const body = bodyOf(n);
    expect(leiRemainder(`${body}${alias}`)).toBe(1);
    expect(isValidLei(`${body}${right}`)).toBe(true);
    expect(isValidLei(`${body}${alias}`)).toBe(false);
    expect(validateLei(`${body}${alias}`)).toEqual({
      valid: false,
      message: `${body}${alias} is not a valid LEI: its check digits should be ${right}.`,
    });
  });
});

describe('validateLei', () => {
  it('reads lower case and surrounding spaces as the LEI', () => {
    expect(validateLei('  21380068p1drhmj8ku70 ')).toEqual({ valid: true, lei: '21380068P1DRHMJ8KU70' });
    expect(validateLei('\u00a05299001erx0k10izul40\t')).toEqual({ valid: true, lei: '5299001ERX0K10IZUL40' });
  });

  it('says which check digits a mistyped LEI should have', () => {
    expect(validateLei('5299001ERX0K10IZUL41')).toEqual({
      valid: false,
      message: '5299001ERX0K10IZUL41 is not a valid LEI: its check digits should be 40.',
    });
    // One character swapped in the body: the check digits no longer fit it.
    expect(validateLei('21380068P1DRHMJ8UK70')).toEqual({
      valid: false,
      message: `21380068P1DRHMJ8UK70 is not a valid LEI: its check digits should be ${leiCheckDigits('21380068P1DRHMJ8UK')}.`,
    });
  });

  it.each([
    [
      '2138 0068P1DRHMJ8KU70',
      '2138 0068P1DRHMJ8KU70 is not a valid LEI: an LEI holds only letters A–Z and digits 0–9, and this has a space.',
    ],
    [
      '21380068-P1DRHMJ8KU70',
      '21380068-P1DRHMJ8KU70 is not a valid LEI: an LEI holds only letters A–Z and digits 0–9, and this has “-”.',
    ],
    [
      '21380068P1DRHMJ8KÜ70',
      '21380068P1DRHMJ8KÜ70 is not a valid LEI: an LEI holds only letters A–Z and digits 0–9, and this has “Ü”.',
    ],
    ['21380068P1DRHMJ8KU7', '21380068P1DRHMJ8KU7 is not a valid LEI: an LEI has 20 characters, and this has 19.'],
    ['21380068P1DRHMJ8KU700', '21380068P1DRHMJ8KU700 is not a valid LEI: an LEI has 20 characters, and this has 21.'],
    [
      '21380068P1DRHMJ8KUXX',
      '21380068P1DRHMJ8KUXX is not a valid LEI: its last two characters are check digits and must be digits.',
    ],
    ['   ', 'An LEI is needed: 20 letters and digits.'],
  ])('explains what is wrong with %j', (input, message) => {
    expect(validateLei(input)).toEqual({ valid: false, message });
    expect(isValidLei(input)).toBe(false);
  });

  it('shortens a very long input in its message', () => {
    const result = validateLei('A'.repeat(500));
    expect(result).toEqual({
      valid: false,
      message: `${'A'.repeat(40)}… is not a valid LEI: an LEI has 20 characters, and this has 500.`,
    });
  });

  it('is not fooled by lower case in isValidLei (which takes stored LEIs only)', () => {
    expect(isValidLei('21380068p1drhmj8ku70')).toBe(false);
  });

  it('refuses a body of the wrong shape in leiCheckDigits', () => {
    expect(() => leiCheckDigits('21380068P1DRHMJ8K')).toThrow(RangeError);
    expect(() => leiCheckDigits('21380068p1drhmj8ku')).toThrow(RangeError);
  });
});
