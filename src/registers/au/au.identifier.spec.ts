import { fixture } from '../../../test/support/fake-register';
import { isValidAbn, isValidAcn, recognizeAuIdentifier } from './au.identifier';

// The one real ABN Lookup response in the fixtures…
const recorded = JSON.parse(
  /^callback\((.*)\)$/s.exec(fixture('registers/au/abr-json-abndetails-26154482283-oneflare-active.jsonp').trim())![1],
) as { Abn: string; Acn: string };
// …and the real numbers the reference verified (shared/registers-dk-au-ca.md §2 Identifiers).
const REAL_ABNS = [recorded.Abn, '88712649015', '53004085616'];
const REAL_ACNS = [recorded.Acn, '004085616', '010499966'];

function oneDigitMutations(digits: string): Array<{ mutated: string; position: number; delta: number }> {
  const out: Array<{ mutated: string; position: number; delta: number }> = [];
  for (let i = 0; i < digits.length; i++) {
    for (let d = 0; d <= 9; d++) {
      if (String(d) !== digits[i])
        out.push({ mutated: digits.slice(0, i) + d + digits.slice(i + 1), position: i, delta: d - Number(digits[i]) });
    }
  }
  return out;
}

describe('recognizeAuIdentifier', () => {
  it('reads the recorded ABN and ACN', () => {
    expect(recorded).toMatchObject({ Abn: '26154482283', Acn: '154482283' });
  });

  it.each(REAL_ABNS)('accepts the real ABN %s', (abn) => {
    expect(recognizeAuIdentifier(abn)).toEqual({ kind: 'number', registrationNumber: abn, scheme: 'abn' });
  });

  it.each(REAL_ACNS)('accepts the real ACN %s', (acn) => {
    expect(recognizeAuIdentifier(acn)).toEqual({ kind: 'number', registrationNumber: acn, scheme: 'acn' });
  });

  it('rejects every one-digit mutation of every real ABN (modulus 89 catches them all)', () => {
    for (const abn of REAL_ABNS) {
      for (const { mutated } of oneDigitMutations(abn)) {
        expect(isValidAbn(mutated)).toBe(false);
        expect(recognizeAuIdentifier(mutated)).toEqual({
          kind: 'invalid',
          message: expect.stringMatching(/check digits are wrong/),
        });
      }
    }
  });

  it('rejects every one-digit mutation of a real ACN that the modulus-10 check digit can see', () => {
    // The ACN check digit is modulus 10: changing the digit of weight w by δ goes unseen
    // exactly when w·δ ≡ 0 (mod 10) (for example weight 5 and an even change). That is the
    // algorithm's blind spot, not ours: those mutations are well-formed ACNs.
    const weights = [8, 7, 6, 5, 4, 3, 2, 1, 1];
    for (const acn of REAL_ACNS) {
      let caught = 0;
      for (const { mutated, position, delta } of oneDigitMutations(acn)) {
        const visible = position === 8 || (weights[position] * delta) % 10 !== 0;
        expect(isValidAcn(mutated)).toBe(!visible);
        if (visible) {
          caught++;
          expect(recognizeAuIdentifier(mutated)).toEqual({
            kind: 'invalid',
            message: expect.stringMatching(/check digit is wrong/),
          });
        }
      }
      expect(caught).toBe(73); // 8 of the 81 one-digit mutations are invisible to this check digit
    }
  });

  it.each([
    ['26 154 482 283', '26154482283', 'abn'],
    ['ABN 26 154 482 283', '26154482283', 'abn'],
    ['abn: 26154482283', '26154482283', 'abn'],
    ['26-154-482-283', '26154482283', 'abn'],
    ['154 482 283', '154482283', 'acn'],
    ['ACN 154 482 283', '154482283', 'acn'],
    ['ACN: 154-482-283', '154482283', 'acn'],
  ])('accepts separators and labels: %s', (query, registrationNumber, scheme) => {
    expect(recognizeAuIdentifier(query)).toEqual({ kind: 'number', registrationNumber, scheme });
  });

  it('checks a labelled number against its label', () => {
    expect(recognizeAuIdentifier('ABN 154482283')).toEqual({
      kind: 'invalid',
      message: expect.stringContaining('11 digits'),
    });
    expect(recognizeAuIdentifier('ACN 26154482283')).toEqual({
      kind: 'invalid',
      message: expect.stringContaining('9 digits'),
    });
  });

  it('leaves bare numbers of other lengths to the name search', () => {
    expect(recognizeAuIdentifier('1544822')).toEqual({ kind: 'name' });
    expect(recognizeAuIdentifier('1300')).toEqual({ kind: 'name' });
  });

  it.each([['7-Eleven'], ['3M Australia Pty Ltd'], ['Oneflare Pty Ltd'], ['ABN AMRO'], ['ACN Group']])(
    'keeps names as names: %s',
    (name) => {
      expect(recognizeAuIdentifier(name)).toEqual({ kind: 'name' });
    },
  );
});
