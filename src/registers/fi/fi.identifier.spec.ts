import fc from 'fast-check';
import { fixture } from '../../../test/support/fake-register';
import { businessIdCheckDigit, isValidBusinessId, recognizeFiIdentifier } from './fi.identifier';

const NOKIA = { kind: 'number', registrationNumber: '0112038-9', scheme: 'ytunnus' };

/** The business IDs of the recorded response (derived files hold fictitious ones). */
function recordedIds(): string[] {
  const text = fixture('registers/fi/prh-ytj-v3-companies-businessId-0112038-9-nokia-oyj.json');
  return [...new Set([...text.matchAll(/\b(\d{7}-\d)\b/g)].map((m) => m[1]))];
}

describe('businessIdCheckDigit', () => {
  it('computes the worked example of registers-next.md: Nokia 0112038 → 57 mod 11 = 2 → 9', () => {
    expect(businessIdCheckDigit('0112038')).toBe(9);
  });

  it("computes python-stdnum's doctest example 2077474-0 (remainder 0 → 0)", () => {
    expect(businessIdCheckDigit('2077474')).toBe(0);
    expect(isValidBusinessId('2077474-0')).toBe(true);
    expect(isValidBusinessId('2077474-1')).toBe(false);
  });

  it('has no check digit where the remainder is 1 (9000002: 63 + 4 = 67, 67 mod 11 = 1)', () => {
    expect(businessIdCheckDigit('9000002')).toBeNull();
    for (let d = 0; d <= 9; d++) expect(isValidBusinessId(`9000002-${d}`)).toBe(false);
  });

  it('wants the dash form', () => {
    expect(isValidBusinessId('01120389')).toBe(false);
    expect(isValidBusinessId('0112038-9')).toBe(true);
  });
});

describe('recognizeFiIdentifier', () => {
  it('finds the real business ID of the recorded response (also inside the EUID)', () => {
    expect(recordedIds()).toEqual(['0112038-9']);
    expect(recognizeFiIdentifier('0112038-9')).toEqual(NOKIA);
  });

  it('says what is wrong with a wrong check digit, in a plain sentence', () => {
    expect(recognizeFiIdentifier('0112038-8')).toEqual({
      kind: 'invalid',
      message: '0112038-8 is not a valid Finnish business ID (Y-tunnus): its check digit should be 9.',
    });
    expect(recognizeFiIdentifier('2077474 1')).toEqual({
      kind: 'invalid',
      message: '2077474-1 is not a valid Finnish business ID (Y-tunnus): its check digit should be 0.',
    });
  });

  it('refuses every check digit after seven digits whose remainder is 1', () => {
    for (let d = 0; d <= 9; d++) {
      expect(recognizeFiIdentifier(`9000002-${d}`)).toEqual({
        kind: 'invalid',
        message: `9000002-${d} is not a valid Finnish business ID (Y-tunnus): no business ID begins with 9000002, as its check digit would be 10.`,
      });
    }
  });

  it('rejects every one-digit change of the real business ID', () => {
    const id = '01120389';
    let changes = 0;
    for (let pos = 0; pos < 8; pos++) {
      for (let d = 0; d <= 9; d++) {
        if (String(d) === id[pos]) continue;
        const changed = id.slice(0, pos) + d + id.slice(pos + 1);
        const match = recognizeFiIdentifier(`${changed.slice(0, 7)}-${changed[7]}`);
        expect(match).toEqual({
          kind: 'invalid',
          message: expect.stringMatching(/is not a valid Finnish business ID \(Y-tunnus\): (its|no business ID)/),
        });
        changes++;
      }
    }
    expect(changes).toBe(72);
  });

  it.each([
    ['0112038-9'],
    ['01120389'],
    ['0112038 9'],
    ['  0112038 - 9 '],
    ['0 1 1 2 0 3 8 9'],
    ['0112038\u00a0-\u00a09'],
    ['0112038–9'],
    ['0112038‑9'],
    ['FI01120389'],
    ['fi 0112038-9'],
    ['FIFPRO.0112038-9'],
    ['Y-tunnus: 0112038-9'],
    ['y-tunnus 01120389'],
    ['Ytunnus 0112038-9'],
  ])('accepts %p as 0112038-9', (query) => {
    expect(recognizeFiIdentifier(query)).toEqual(NOKIA);
  });

  it.each([
    ['Nokia'],
    ['Nokia Oyj'],
    ['Oy Nokia Ab'],
    ['1234567'],
    ['123456789'],
    ['0112038-98'],
    ['2012-03-08'],
    ['0112-038-9'],
    ['0112038-9 Oyj'],
    ['FI 2024'],
    ['FINNAIR'],
    ['112038-9'],
    [''],
  ])('leaves %p as a name', (query) => {
    expect(recognizeFiIdentifier(query)).toEqual({ kind: 'name' });
  });

  it.each([['Y-tunnus 112038-9'], ['Y-tunnus: 01120389 0'], ['FIFPRO.0112038']])(
    'calls %p a mistyped business ID: it is labelled as one',
    (query) => {
      expect(recognizeFiIdentifier(query)).toEqual({
        kind: 'invalid',
        message: `A Finnish business ID (Y-tunnus) is seven digits, a dash and a check digit, like 0112038-9; "${query}" is not.`,
      });
    },
  );

  it('accepts any seven digits completed with their check digit, with or without the dash (property)', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{7}$/), fc.boolean(), (firstSeven, dash) => {
        const check = businessIdCheckDigit(firstSeven);
        fc.pre(check !== null);
        const id = `${firstSeven}-${check}`;
        expect(isValidBusinessId(id)).toBe(true);
        expect(recognizeFiIdentifier(dash ? id : `${firstSeven}${check}`)).toEqual({
          kind: 'number',
          registrationNumber: id,
          scheme: 'ytunnus',
        });
      }),
    );
  });

  it('finds about one seven-digit prefix in eleven without a check digit', () => {
    let none = 0;
    for (let n = 0; n < 110_000; n++) if (businessIdCheckDigit(String(n).padStart(7, '0')) === null) none++;
    expect(none / 110_000).toBeCloseTo(1 / 11, 2);
  });
});
