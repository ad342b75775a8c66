import { readdirSync } from 'node:fs';
import fc from 'fast-check';
import { join } from 'node:path';
import { FIXTURES, fixture } from '../../../test/support/fake-register';
import { isValidOrgnr, orgnrCheckDigit, recognizeNoIdentifier } from './no.identifier';

/** brreg's documentation examples, fictitious and failing mod-11 (see the NO fixtures' MANIFEST). */
const FICTITIOUS = new Set(['112233445', '123456789']);

function orgnrsInFixtures(): string[] {
  const found = new Set<string>();
  // Recorded responses only: constructed or derived files hold no real numbers.
  const recorded = (f: string) => f.endsWith('.json') && !/constructed|derived/.test(f);
  for (const file of readdirSync(join(FIXTURES, 'registers/no')).filter(recorded)) {
    const text = fixture(`registers/no/${file}`);
    for (const m of text.matchAll(/"organisasjonsnummer"\s*:\s*"(\d{9})"/g)) found.add(m[1]);
    for (const m of text.matchAll(/\/enheter\/(\d{9})\b/g)) found.add(m[1]);
  }
  return [...found].sort();
}

const real = orgnrsInFixtures().filter((n) => !FICTITIOUS.has(n));

describe('recognizeNoIdentifier', () => {
  it('collects the real numbers of the recorded responses', () => {
    expect(real.length).toBeGreaterThanOrEqual(28);
    expect(real).toEqual(expect.arrayContaining(['923609016', '976030788', '883603362', '976389387']));
  });

  it.each(real)('recognises the real organisation number %s', (orgnr) => {
    expect(recognizeNoIdentifier(orgnr)).toEqual({ kind: 'number', registrationNumber: orgnr, scheme: 'orgnr' });
  });

  it('rejects every one-digit mutation of every real number with a check-digit message', () => {
    let mutations = 0;
    for (const orgnr of real) {
      for (let pos = 0; pos < 9; pos++) {
        for (let d = 0; d <= 9; d++) {
          if (String(d) === orgnr[pos]) continue;
          const mutated = orgnr.slice(0, pos) + d + orgnr.slice(pos + 1);
          const match = recognizeNoIdentifier(mutated);
          expect(match).toEqual({ kind: 'invalid', message: expect.stringContaining('check digit') });
          mutations++;
        }
      }
    }
    expect(mutations).toBe(real.length * 81);
  });

  it("flags brreg's fictitious documentation numbers as invalid", () => {
    for (const orgnr of FICTITIOUS) expect(recognizeNoIdentifier(orgnr).kind).toBe('invalid');
  });

  it.each([
    ['923 609 016'],
    ['923.609.016'],
    ['923-609-016'],
    ['  923609016 '],
    ['923\u00a0609\u00a0016'],
    ['NO 923 609 016 MVA'],
    ['no923609016mva'],
    ['NO923609016'],
    ['923609016 MVA'],
  ])('accepts separators and the VAT form: %p', (query) => {
    expect(recognizeNoIdentifier(query)).toEqual({ kind: 'number', registrationNumber: '923609016', scheme: 'orgnr' });
  });

  it.each([
    ['Equinor'],
    ['Sesam AS'],
    ['12345'],
    ['9236090161'],
    ['92360901'],
    ['NO 9236 MVA'],
    ['923609016 AS'],
    [''],
  ])('leaves %p as a name', (query) => {
    expect(recognizeNoIdentifier(query)).toEqual({ kind: 'name' });
  });

  it('treats numbers whose computed check digit would be 10 as invalid', () => {
    // Some 8-digit prefixes have remainder 1, so no digit 0–9 completes them.
    const prefix = [...Array(100000).keys()]
      .map((n) => String(n).padStart(8, '0'))
      .find((p) => orgnrCheckDigit(p) === null)!;
    for (let d = 0; d <= 9; d++) expect(recognizeNoIdentifier(prefix + d).kind).toBe('invalid');
  });

  it('accepts any 8 digits completed with their computed check digit (property)', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{8}$/), (prefix) => {
        const check = orgnrCheckDigit(prefix);
        fc.pre(check !== null);
        const orgnr = prefix + check;
        expect(isValidOrgnr(orgnr)).toBe(true);
        expect(recognizeNoIdentifier(`${orgnr.slice(0, 3)} ${orgnr.slice(3, 6)} ${orgnr.slice(6)}`)).toEqual({
          kind: 'number',
          registrationNumber: orgnr,
          scheme: 'orgnr',
        });
      }),
    );
  });
});
