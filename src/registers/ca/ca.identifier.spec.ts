import { fixture } from '../../../test/support/fake-register';
import { isValidBn9, recognizeCaIdentifier } from './ca.identifier';

const XML_FILES = [
  'registers/ca/corpcan-opendata-corporation-1007-abbotsford-chamber-bota.xml',
  'registers/ca/corpcan-opendata-corporation-16292721-numbered-cbca-2024.xml',
];
const xml = XML_FILES.map((f) => fixture(f)).join('\n');
// Real numbers from the open-data records, the directors response, and the reference's
// verified Business Numbers (shared/registers-dk-au-ca.md §3 Identifiers).
const REAL_BN9 = [
  ...[...xml.matchAll(/<businessNumber>(\d+)<\/businessNumber>/g)].map((m) => m[1]),
  '721968915',
  '847871746',
];
const REAL_CORPORATION_NUMBERS = [
  ...[...xml.matchAll(/corporationId="(\d+)"/g)].map((m) => m[1]),
  /corporations\/(\d+)\/directors/.exec(fixture('registers/ca/corpcan-api-v2-directors-9657690.json'))![1],
];

function oneDigitMutations(digits: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < digits.length; i++) {
    for (let d = 0; d <= 9; d++) if (String(d) !== digits[i]) out.push(digits.slice(0, i) + d + digits.slice(i + 1));
  }
  return out;
}

describe('recognizeCaIdentifier', () => {
  it('reads the real numbers of the fixtures', () => {
    expect(REAL_BN9).toEqual(['106679285', '754441624', '721968915', '847871746']);
    expect(REAL_CORPORATION_NUMBERS).toEqual(['1007', '16292721', '9657690']);
  });

  it.each(REAL_BN9)('accepts the real Business Number %s as a BN9', (bn) => {
    expect(recognizeCaIdentifier(bn)).toEqual({ kind: 'number', registrationNumber: bn, scheme: 'bn9' });
  });

  it('rejects every one-digit mutation of every real BN9 (Luhn catches them all)', () => {
    for (const bn of REAL_BN9) {
      for (const mutated of oneDigitMutations(bn)) {
        expect(isValidBn9(mutated)).toBe(false);
        expect(recognizeCaIdentifier(mutated)).toEqual({
          kind: 'invalid',
          message: expect.stringMatching(/check digit is wrong/),
        });
      }
    }
  });

  it('reads a BN15 program account as its BN9 and checks the BN9', () => {
    expect(recognizeCaIdentifier('847871746RC0001')).toEqual({
      kind: 'number',
      registrationNumber: '847871746',
      scheme: 'bn9',
    });
    expect(recognizeCaIdentifier('847871746 rt 0001')).toEqual({
      kind: 'number',
      registrationNumber: '847871746',
      scheme: 'bn9',
    });
    expect(recognizeCaIdentifier('BN 106679285RP0002')).toEqual({
      kind: 'number',
      registrationNumber: '106679285',
      scheme: 'bn9',
    });
    expect(recognizeCaIdentifier('847871747RC0001').kind).toBe('invalid');
  });

  it.each([
    ['106 679 285', '106679285'],
    ['106-679-285', '106679285'],
    ['BN 106679285', '106679285'],
    ['BN9: 754441624', '754441624'],
  ])('accepts separators and prefixes of a BN9: %s', (query, bn) => {
    expect(recognizeCaIdentifier(query)).toEqual({ kind: 'number', registrationNumber: bn, scheme: 'bn9' });
  });

  it.each(REAL_CORPORATION_NUMBERS)('accepts the real corporation number %s (format only)', (number) => {
    expect(recognizeCaIdentifier(number)).toEqual({
      kind: 'number',
      registrationNumber: number,
      scheme: 'corporation_number',
    });
  });

  it('checks corporation numbers by format only: any 1–8 digits are accepted, there is no public check digit', () => {
    for (const number of REAL_CORPORATION_NUMBERS) {
      for (const mutated of oneDigitMutations(number)) {
        const expected = mutated.replace(/^0+/, '');
        if (expected === '') continue;
        expect(recognizeCaIdentifier(mutated)).toEqual({
          kind: 'number',
          registrationNumber: expected,
          scheme: 'corporation_number',
        });
      }
    }
  });

  it.each([
    ['965769-0', '9657690'],
    ['000100-7', '1007'],
    ['0001007', '1007'],
    ['1629 2721', '16292721'],
    [' 1007 ', '1007'],
  ])('accepts the typed forms of a corporation number: %s', (query, number) => {
    expect(recognizeCaIdentifier(query)).toEqual({
      kind: 'number',
      registrationNumber: number,
      scheme: 'corporation_number',
    });
  });

  it('reports a labelled BN of the wrong shape as invalid, and leaves longer bare numbers to the name search', () => {
    expect(recognizeCaIdentifier('BN 1007')).toEqual({
      kind: 'invalid',
      message: expect.stringContaining('Business Number has 9 digits'),
    });
    expect(recognizeCaIdentifier('BN 1066792850')).toEqual({
      kind: 'invalid',
      message: expect.stringContaining('Business Number has 9 digits'),
    });
    expect(recognizeCaIdentifier('0000000').kind).toBe('invalid');
    expect(recognizeCaIdentifier('1234567890')).toEqual({ kind: 'name' });
  });

  it.each([['7-Eleven'], ['3M Canada'], ['16292721 CANADA INC.'], ['Abbotsford Chamber of Commerce'], ['BNP Paribas']])(
    'keeps names as names: %s',
    (name) => {
      expect(recognizeCaIdentifier(name)).toEqual({ kind: 'name' });
    },
  );
});
