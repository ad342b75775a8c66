import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import {
  isValidNip,
  isValidRegon,
  nipCheckDigit,
  notTheKey,
  padKrs,
  recognizePlIdentifier,
  regonCheckDigit,
  unpadRegon,
} from './pl.identifier';

const DIR = join(__dirname, '../../../test/fixtures/registers/pl');

/** Every value of `key` in the recorded responses (derived files hold no new real numbers). */
function valuesInFixtures(key: string): string[] {
  const found = new Set<string>();
  for (const file of readdirSync(DIR).filter((f) => f.endsWith('.json') && !f.includes('derived'))) {
    const text = readFileSync(join(DIR, file), 'utf8');
    for (const m of text.matchAll(new RegExp(`"${key}"\\s*:\\s*"(\\d+)"`, 'g'))) found.add(m[1]);
  }
  return [...found].sort();
}

/** A NIP or REGON is recognised, and answered from the fallback dataset (KRS cannot be asked for one). */
const nipMatch = (nip: string) => ({
  kind: 'number',
  registrationNumber: nip,
  scheme: 'nip',
  datasetOnly: notTheKey('NIP', nip),
});
const regonMatch = (regon: string) => ({
  kind: 'number',
  registrationNumber: regon,
  scheme: 'regon',
  datasetOnly: notTheKey('REGON', regon),
});

const NIPS = valuesInFixtures('nip');
const REGONS = valuesInFixtures('regon');
const KRS_NUMBERS = [...valuesInFixtures('numerKRS'), ...valuesInFixtures('krs')];
const FEED_NUMBERS: string[] = JSON.parse(
  readFileSync(join(DIR, 'krs-biuletyngodzinowy-2026-09-22-godzinaod-10-godzinado-11.json'), 'utf8'),
);

describe('Polish check digits: the worked examples of registers-next.md', () => {
  it('NIP 7740001454 (ORLEN): Σ = 169, 169 mod 11 = 4', () => {
    expect(nipCheckDigit('774000145')).toBe(4);
    expect(isValidNip('7740001454')).toBe(true);
  });

  it('NIP 9452336418 (GYM CENTER 8.0): Σ = 195, 195 mod 11 = 8', () => {
    expect(nipCheckDigit('945233641')).toBe(8);
    expect(isValidNip('9452336418')).toBe(true);
  });

  it('REGON 545772924: Σ = 213, 213 mod 11 = 4', () => {
    expect(regonCheckDigit('54577292')).toBe(4);
    expect(isValidRegon('545772924')).toBe(true);
  });

  it("KRS's padded 54577292400000 fails the 14-digit check (computed 3, written 0) and stands for 545772924", () => {
    expect(regonCheckDigit('5457729240000')).toBe(3);
    expect(isValidRegon('54577292400000')).toBe(false);
    expect(unpadRegon('54577292400000')).toBe('545772924');
  });
});

describe('recognizePlIdentifier', () => {
  it('collects the real identifiers of the recorded responses', () => {
    expect(NIPS).toEqual(['5213003700', '7740001454', '9452336418']);
    expect(REGONS).toEqual(expect.arrayContaining(['54577292400000', '54397808200000', '61018820100000', '190541636']));
    expect(KRS_NUMBERS).toEqual(expect.arrayContaining(['0001268296', '0000030897', '0000028860', '0000106150']));
  });

  it.each(NIPS)('recognises the real NIP %s', (nip) => {
    expect(recognizePlIdentifier(nip)).toEqual(nipMatch(nip));
  });

  it.each(REGONS)('recognises the real REGON %s (9 digits for the padded form)', (regon) => {
    expect(recognizePlIdentifier(regon)).toEqual(regonMatch(regon.length === 14 ? regon.slice(0, 9) : regon));
  });

  it.each([...new Set(KRS_NUMBERS)])('recognises the real KRS number %s, and it typed without its zeros', (krs) => {
    const expected = { kind: 'number', registrationNumber: krs, scheme: 'krs' };
    expect(recognizePlIdentifier(krs)).toEqual(expected);
    expect(recognizePlIdentifier(krs.replace(/^0+/, ''))).toEqual(expected);
    expect(recognizePlIdentifier(`KRS ${krs.replace(/^0+/, '')}`)).toEqual(expected);
  });

  it('reads every number of the recorded change feed (written without zeros) as a KRS number', () => {
    expect(FEED_NUMBERS).toHaveLength(511);
    for (const n of FEED_NUMBERS) {
      expect(recognizePlIdentifier(n)).toEqual({ kind: 'number', registrationNumber: padKrs(n), scheme: 'krs' });
    }
  });

  it.each([
    ['0000028860'],
    ['28860'],
    ['000028860'.slice(1)],
    ['KRS 0000028860'],
    ['krs: 28860'],
    ['KRS0000028860'],
    [' 0000 028 860 '],
  ])('accepts the forms of a KRS number: %p', (query) => {
    expect(recognizePlIdentifier(query)).toEqual({ kind: 'number', registrationNumber: '0000028860', scheme: 'krs' });
  });

  it.each([
    ['774-000-14-54'],
    ['774 000 14 54'],
    ['PL7740001454'],
    ['pl 774-000-14-54'],
    ['NIP 7740001454'],
    ['NIP: 774-000-14-54'],
  ])('accepts the forms of a NIP: %p', (query) => {
    expect(recognizePlIdentifier(query)).toEqual(nipMatch('7740001454'));
  });

  it('says why a NIP or REGON is answered from the dataset, and what a miss means, in plain sentences', () => {
    expect(notTheKey('NIP', '7740001454')).toEqual({
      why: 'KRS is searched by KRS number only and cannot be asked for a NIP: NIP 7740001454 was looked for in the data this service holds',
      notFound:
        'KRS is searched by KRS number only, and no KRS number was found for NIP 7740001454 in the data this service holds.',
    });
    expect(recognizePlIdentifier('0000028860')).not.toHaveProperty('datasetOnly');
  });

  it('rejects every one-digit mutation of every real NIP with a sentence naming the NIP', () => {
    let mutations = 0;
    for (const nip of NIPS) {
      for (let pos = 0; pos < 10; pos++) {
        for (let d = 0; d <= 9; d++) {
          if (String(d) === nip[pos]) continue;
          const mutated = nip.slice(0, pos) + d + nip.slice(pos + 1);
          // A mutated first digit 0 makes an unlabelled KRS number; labelled, it stays a NIP.
          const match = recognizePlIdentifier(`NIP ${mutated}`);
          expect(match).toEqual({
            kind: 'invalid',
            message: expect.stringMatching(/^\d{10} is not a valid Polish NIP: /),
          });
          mutations++;
        }
      }
    }
    expect(mutations).toBe(NIPS.length * 90);
  });

  it('says the check digit is wrong for a NIP whose last digit is off', () => {
    expect(recognizePlIdentifier('7740001455')).toEqual({
      kind: 'invalid',
      message: '7740001455 is not a valid Polish NIP: its check digit (the last digit) is wrong.',
    });
  });

  it('says no check digit fits when the first nine digits of a NIP give remainder 10', () => {
    const prefix = [...Array(100000).keys()]
      .map((n) => `1${String(n).padStart(8, '0')}`)
      .find((p) => nipCheckDigit(p) === null)!;
    for (let d = 0; d <= 9; d++) {
      expect(recognizePlIdentifier(prefix + d)).toEqual({
        kind: 'invalid',
        message: `${prefix}${d} is not a valid Polish NIP: no NIP can start with these nine digits (no check digit fits).`,
      });
    }
  });

  it('rejects every other check digit of every real 9-digit REGON', () => {
    for (const regon of REGONS.map(unpadRegon).filter((r) => r.length === 9)) {
      for (let d = 0; d <= 9; d++) {
        if (String(d) === regon[8]) continue;
        expect(recognizePlIdentifier(regon.slice(0, 8) + d)).toEqual({
          kind: 'invalid',
          message: expect.stringMatching(/^\d{9} is not a valid REGON: its check digit \(the last digit\) is wrong\./),
        });
      }
    }
  });

  it('accepts a 14-digit REGON of a local unit and rejects one with a wrong check digit or a wrong first nine', () => {
    const body = '5457729240001';
    const regon14 = body + regonCheckDigit(body);
    expect(recognizePlIdentifier(regon14)).toEqual(regonMatch(regon14));
    const wrong = body + ((regonCheckDigit(body) + 1) % 10);
    expect(recognizePlIdentifier(wrong)).toEqual({
      kind: 'invalid',
      message: `${wrong} is not a valid REGON: its check digit (the last digit) is wrong.`,
    });
    const badParentBody = '5457729250001';
    const badParent = badParentBody + regonCheckDigit(badParentBody);
    expect(recognizePlIdentifier(badParent)).toEqual({
      kind: 'invalid',
      message: `${badParent} is not a valid REGON: its first nine digits are not a valid REGON (wrong check digit).`,
    });
  });

  it('hints at the KRS padding for nine digits with leading zeros that are no REGON', () => {
    const match = recognizePlIdentifier('000028860');
    expect(isValidRegon('000028860')).toBe(false);
    expect(match).toEqual({
      kind: 'invalid',
      message:
        '000028860 is not a valid REGON: its check digit (the last digit) is wrong. A KRS number is written with ten digits (for example 0000028860).',
    });
  });

  it.each([
    ['0000000000', '0000000000 is not a KRS number: KRS numbers start at 0000000001.'],
    ['KRS 0', '0 is not a KRS number: KRS numbers start at 0000000001.'],
    [
      'KRS 12345678901',
      '12345678901 is not a KRS number: a KRS number has at most ten digits (for example 0000028860).',
    ],
    [
      'KRS 7740001454',
      '7740001454 is not a KRS number: KRS numbers are written with leading zeros (for example 0000028860); a ten-digit number without one is a NIP.',
    ],
    ['NIP 12345', '12345 is not a valid Polish NIP: a NIP has ten digits.'],
    ['REGON 1234567', '1234567 is not a valid REGON: a REGON has 9 or 14 digits.'],
  ])('explains why %p is not a number of its kind', (query, message) => {
    expect(recognizePlIdentifier(query)).toEqual({ kind: 'invalid', message });
  });

  it.each([
    ['ORLEN'],
    ['GYM CENTER 8.0'],
    ['Fundacja Wielka Orkiestra Świątecznej Pomocy'],
    ['PL 2024'],
    ['12345678901'],
    ['1234567890123456'],
    ['0000028860 SA'],
    [''],
  ])('leaves %p as a name', (query) => {
    expect(recognizePlIdentifier(query)).toEqual({ kind: 'name' });
  });

  it('accepts any nine digits completed with their NIP check digit (property)', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[1-9]\d{8}$/), (prefix) => {
        const check = nipCheckDigit(prefix);
        fc.pre(check !== null);
        const nip = `${prefix}${check}`;
        expect(
          recognizePlIdentifier(`${nip.slice(0, 3)}-${nip.slice(3, 6)}-${nip.slice(6, 8)}-${nip.slice(8)}`),
        ).toEqual(nipMatch(nip));
      }),
    );
  });

  it('pads any KRS number typed short to ten digits (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 99_999_999 }), (n) => {
        expect(recognizePlIdentifier(String(n))).toEqual({
          kind: 'number',
          registrationNumber: String(n).padStart(10, '0'),
          scheme: 'krs',
        });
      }),
    );
  });
});
