import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { FIXTURES, fixture } from '../../../test/support/fake-register';
import { icoCheckDigit, isValidIco, recognizeCzIdentifier } from './cz.identifier';

const F = 'registers/cz';

/** Every IČO the recorded ARES responses carry (subjects, VR shareholders, and "IČ 251 40 485" in free text). */
function icosInFixtures(): string[] {
  const found = new Set<string>();
  // Recorded responses only: derived files hold no new numbers.
  const recorded = (f: string) => f.endsWith('.json') && !/derived|openapi/.test(f);
  for (const file of readdirSync(join(FIXTURES, F)).filter(recorded)) {
    const text = fixture(`${F}/${file}`);
    for (const m of text.matchAll(/"(?:ico|icoId)"\s*:\s*"(\d{8})"/g)) found.add(m[1]);
    for (const m of text.matchAll(/IČ:? (\d{3} \d{2} \d{3})\b/g)) found.add(m[1].replace(/ /g, ''));
  }
  return [...found].sort();
}

const real = icosInFixtures();

/** The remainder the check digit is taken from. */
function remainder(ico: string): number {
  return [8, 7, 6, 5, 4, 3, 2].reduce((sum, w, i) => sum + w * Number(ico[i]), 0) % 11;
}

describe('recognizeCzIdentifier', () => {
  it('collects the real IČOs of the recorded responses', () => {
    expect(real).toEqual([
      '01603094',
      '25063677',
      '25140485',
      '25834151',
      '26470373',
      '27074358',
      '47154888',
      '48399167',
      '62966855',
    ]);
  });

  it.each(real)('recognises the real IČO %s', (ico) => {
    expect(recognizeCzIdentifier(ico)).toEqual({ kind: 'number', registrationNumber: ico, scheme: 'ico' });
  });

  describe("registers-next.md's worked examples", () => {
    it('27074358: sum 135, 135 mod 11 = 3, 11 − 3 = 8', () => {
      expect(remainder('27074358')).toBe(3);
      expect(icoCheckDigit('2707435')).toBe(8);
      expect(isValidIco('27074358')).toBe(true);
    });

    it('68407700: sum 177, r = 1 → check digit 0 (edge case)', () => {
      expect(remainder('68407700')).toBe(1);
      expect(icoCheckDigit('6840770')).toBe(0);
      expect(recognizeCzIdentifier('68407700')).toEqual({
        kind: 'number',
        registrationNumber: '68407700',
        scheme: 'ico',
      });
    });

    it('25834151: sum 143, r = 0 → check digit 1 (edge case)', () => {
      expect(remainder('25834151')).toBe(0);
      expect(icoCheckDigit('2583415')).toBe(1);
      expect(isValidIco('25834151')).toBe(true);
    });

    it('the edge cases are not the naive 11 − r: that would give 11 and 10', () => {
      expect(recognizeCzIdentifier('68407701').kind).toBe('invalid');
      expect(recognizeCzIdentifier('25834150').kind).toBe('invalid');
    });
  });

  it('rejects a wrong check digit with a plain sentence', () => {
    expect(recognizeCzIdentifier('27074357')).toEqual({
      kind: 'invalid',
      message: '27074357 is not a valid Czech IČO: its check digit (the last digit) is wrong.',
    });
  });

  it('catches every one-digit change of a real IČO but those that move the remainder between 0 and 10', () => {
    // (11 − r) mod 10 maps r = 0 and r = 10 to the same digit 1: mod 11 cannot tell those two apart.
    let caught = 0;
    let missed = 0;
    for (const ico of real) {
      for (let pos = 0; pos < 8; pos++) {
        for (let d = 0; d <= 9; d++) {
          if (String(d) === ico[pos]) continue;
          const mutated = ico.slice(0, pos) + d + ico.slice(pos + 1);
          const match = recognizeCzIdentifier(mutated);
          if (match.kind === 'invalid') {
            expect(match.message).toContain('check digit');
            caught++;
          } else {
            expect(pos).toBeLessThan(7);
            expect(new Set([remainder(ico), remainder(mutated)])).toEqual(new Set([0, 10]));
            missed++;
          }
        }
      }
    }
    expect(caught + missed).toBe(real.length * 72);
    expect(missed).toBeLessThan(real.length * 2);
  });

  it.each([
    ['270 74 358'],
    ['27 07 43 58'],
    ['270-74-358'],
    ['27.074.358'],
    ['  27074358 '],
    ['270\u00a074\u00a0358'],
    ['IČO 27074358'],
    ['IČO: 270 74 358'],
    ['ičo 27074358'],
    ['IČ 27074358'],
    ['ICO:27074358'],
    ['CZ27074358'],
    ['cz 270 74 358'],
    ['DIČ: CZ27074358'],
  ])('accepts separators, labels and the VAT form: %p', (query) => {
    expect(recognizeCzIdentifier(query)).toEqual({ kind: 'number', registrationNumber: '27074358', scheme: 'ico' });
  });

  it('reads the labelled, spaced numbers of the VR free text ("IČ 251 40 485", "IČ: 264 70 373")', () => {
    expect(recognizeCzIdentifier('IČ 251 40 485')).toMatchObject({ kind: 'number', registrationNumber: '25140485' });
    expect(recognizeCzIdentifier('IČ: 264 70 373')).toMatchObject({ kind: 'number', registrationNumber: '26470373' });
  });

  it('does not pad a 7-digit IČO (ARES rejects it) but says which number was probably meant', () => {
    // The recorded CHYBA_VSTUPU answer is ARES refusing 1603094, the sole trader 01603094 without its zero.
    expect(fixture(`${F}/ares-error-400-chyba-vstupu-ico-7-digits.json`)).toContain('VSTUP_NEVALIDNI_FORMAT_ICO');
    expect(recognizeCzIdentifier('1603094')).toEqual({
      kind: 'invalid',
      message:
        'A Czech IČO has 8 digits, leading zeros included; "1603094" has 7. If a leading zero was left out: 01603094.',
    });
    expect(recognizeCzIdentifier('7074358')).toEqual({
      kind: 'invalid',
      message: 'A Czech IČO has 8 digits, leading zeros included; "7074358" has 7.',
    });
  });

  it('calls any labelled number of the wrong length a mistyped IČO', () => {
    expect(recognizeCzIdentifier('IČO 1234')).toEqual({
      kind: 'invalid',
      message: 'A Czech IČO has 8 digits, leading zeros included; "IČO 1234" has 4.',
    });
    expect(recognizeCzIdentifier('CZ 270743581').kind).toBe('invalid');
  });

  it("tells a natural person's DIČ (CZ + birth number) from an IČO", () => {
    expect(recognizeCzIdentifier('CZ8001030092')).toEqual({
      kind: 'invalid',
      message:
        '"CZ8001030092" is the VAT number (DIČ) of a natural person, made from a birth number, not an IČO; search by the IČO or the name.',
    });
  });

  it.each([
    ['Asseco Central Europe'],
    ['SAD s.r.o.'],
    ['ICOM s.r.o.'],
    ['ICE'],
    ['IČO'],
    ['1508'],
    ['123456789'],
    ['2707435 8 a.s.'],
    ['CZ'],
    [''],
  ])('leaves %p as a name', (query) => {
    expect(recognizeCzIdentifier(query)).toEqual({ kind: 'name' });
  });

  it('accepts any 7 digits completed with their computed check digit (property)', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{7}$/), (prefix) => {
        const ico = prefix + icoCheckDigit(prefix);
        expect(isValidIco(ico)).toBe(true);
        expect(recognizeCzIdentifier(`${ico.slice(0, 3)} ${ico.slice(3, 5)} ${ico.slice(5)}`)).toEqual({
          kind: 'number',
          registrationNumber: ico,
          scheme: 'ico',
        });
      }),
    );
  });
});
