import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { FIXTURES, fixture } from '../../../test/support/fake-register';
import { frenchVatKey, isValidSiren, isValidSiret, recognizeFrIdentifier } from './fr.identifier';
import { luhnValid } from '../identifier';

/** Every siren / siret / TVA value of the recorded French responses. */
function numbersInFixtures(): { sirens: string[]; sirets: string[]; vats: string[] } {
  const sirens = new Set<string>();
  const sirets = new Set<string>();
  const vats = new Set<string>();
  const walk = (value: unknown, key?: string): void => {
    if (Array.isArray(value)) return value.forEach((v) => walk(v, key));
    if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) walk(v, k);
      return;
    }
    if (typeof value !== 'string') return;
    if (key === 'siren' && /^\d{9}$/.test(value)) sirens.add(value);
    if (key === 'siret' && /^\d{14}$/.test(value)) sirets.add(value);
    for (const m of value.matchAll(/\bFR\d{11}\b/g)) vats.add(m[0]);
  };
  // Recorded responses only: constructed or derived files hold no real numbers of their own.
  for (const file of readdirSync(join(FIXTURES, 'registers/fr')).filter(
    (f) => f.endsWith('.json') && !/constructed|derived/.test(f),
  )) {
    walk(JSON.parse(fixture(`registers/fr/${file}`)));
  }
  return { sirens: [...sirens].sort(), sirets: [...sirets].sort(), vats: [...vats].sort() };
}

function mutations(number: string, positions: number[] = [...number].map((_, i) => i)): string[] {
  const out: string[] = [];
  for (const pos of positions) {
    for (let d = 0; d <= 9; d++) {
      if (String(d) !== number[pos]) out.push(number.slice(0, pos) + d + number.slice(pos + 1));
    }
  }
  return out;
}

const { sirens, sirets, vats } = numbersInFixtures();
/** La Poste SIRET quoted (verified) in shared/registers-gb-fr-no.md: fails Luhn, digit sum 35. */
const LA_POSTE_SIRET = '35600000053166';

describe('recognizeFrIdentifier', () => {
  it('collects the real numbers of the recorded responses', () => {
    expect(sirens).toEqual(expect.arrayContaining(['552032534', '880878145', '130025265', '344366315']));
    expect(sirets).toEqual(expect.arrayContaining(['88087814500015', '13002526500013', '55203253400703']));
    expect(vats).toEqual(['FR27552032534']);
    expect(sirens.length).toBeGreaterThanOrEqual(15);
    expect(sirets.length).toBeGreaterThanOrEqual(13);
  });

  it.each(sirens)('recognises the real SIREN %s', (siren) => {
    expect(recognizeFrIdentifier(siren)).toEqual({ kind: 'number', registrationNumber: siren, scheme: 'siren' });
  });

  it.each(sirets)('recognises the real SIRET %s as its SIREN', (siret) => {
    expect(recognizeFrIdentifier(siret)).toEqual({
      kind: 'number',
      registrationNumber: siret.slice(0, 9),
      scheme: 'siret',
    });
  });

  it.each([...vats, 'FR04812809234'])('recognises the real VAT number %s as its SIREN', (vat) => {
    expect(recognizeFrIdentifier(vat)).toEqual({ kind: 'number', registrationNumber: vat.slice(4), scheme: 'vat' });
  });

  it('rejects every one-digit mutation of every real SIREN and SIRET', () => {
    let count = 0;
    for (const number of [...sirens, ...sirets]) {
      for (const mutated of mutations(number)) {
        expect(recognizeFrIdentifier(mutated)).toEqual({
          kind: 'invalid',
          message: expect.stringContaining('check digit'),
        });
        count++;
      }
    }
    expect(count).toBe(sirens.length * 81 + sirets.length * 126);
  });

  it('rejects every one-digit mutation of the key and of the SIREN of a VAT number', () => {
    for (const vat of vats) {
      for (const mutated of mutations(vat.slice(2))) {
        const match = recognizeFrIdentifier(`FR${mutated}`);
        expect(match.kind).toBe('invalid');
      }
    }
    expect(recognizeFrIdentifier('FR28552032534')).toEqual({
      kind: 'invalid',
      message: expect.stringContaining('key'),
    });
  });

  it('accepts La Poste SIRETs that fail Luhn when their digit sum is a multiple of 5', () => {
    expect(luhnValid(LA_POSTE_SIRET)).toBe(false);
    expect(recognizeFrIdentifier(LA_POSTE_SIRET)).toEqual({
      kind: 'number',
      registrationNumber: '356000000',
      scheme: 'siret',
    });
  });

  it('rejects La Poste SIRET mutations except those no check can see', () => {
    // The base fails Luhn, so a mutation of the NIC may happen to pass Luhn, and the mod-5
    // rule cannot see a change of ±5: both are accepted, as INSEE's own rule accepts them.
    // Every change of the SIREN part is rejected.
    let accepted = 0;
    for (const mutated of mutations(LA_POSTE_SIRET)) {
      const pos = [...mutated].findIndex((d, i) => d !== LA_POSTE_SIRET[i]);
      const delta = Number(mutated[pos]) - Number(LA_POSTE_SIRET[pos]);
      const undetectable = pos >= 9 && (Math.abs(delta) === 5 || luhnValid(mutated));
      expect([mutated, recognizeFrIdentifier(mutated).kind]).toEqual([mutated, undetectable ? 'number' : 'invalid']);
      if (undetectable) accepted++;
    }
    expect(accepted).toBeLessThanOrEqual(15);
  });

  it('does not extend the La Poste exception to other SIRENs', () => {
    // 552032534 + a NIC whose 14-digit sum is a multiple of 5 but fails Luhn.
    const candidate = [...Array(100000).keys()]
      .map((n) => `552032534${String(n).padStart(5, '0')}`)
      .find((s) => !luhnValid(s) && [...s].reduce((a, d) => a + Number(d), 0) % 5 === 0)!;
    expect(recognizeFrIdentifier(candidate).kind).toBe('invalid');
  });

  it.each([
    ['552 032 534', '552032534', 'siren'],
    ['552.032.534', '552032534', 'siren'],
    ['552-032-534', '552032534', 'siren'],
    ['880 878 145 00015', '880878145', 'siret'],
    ['FR 27 552 032 534', '552032534', 'vat'],
    ['fr27552032534', '552032534', 'vat'],
  ])('accepts separators: %p', (query, registrationNumber, scheme) => {
    expect(recognizeFrIdentifier(query)).toEqual({ kind: 'number', registrationNumber, scheme });
  });

  it('reads the BODACC register field, which holds the SIREN spaced and compact', () => {
    const bodacc = JSON.parse(fixture('registers/fr/bodacc-annonces-commerciales-registre-880878145.json'));
    const registre: string = bodacc.records[0].fields.registre;
    for (const form of registre.split(','))
      expect(recognizeFrIdentifier(form)).toMatchObject({ registrationNumber: '880878145' });
  });

  it('flags the unknown SIRET of the no-result fixture: it fails Luhn', () => {
    expect(recognizeFrIdentifier('12345678900003').kind).toBe('invalid');
  });

  it.each([['Danone'], ['Ganymede'], ['3 Suisses'], ['55203253'], ['5520325340'], ['FRXX552032534'], ['']])(
    'leaves %p as a name',
    (query) => {
      expect(recognizeFrIdentifier(query)).toEqual({ kind: 'name' });
    },
  );

  it('accepts any SIREN completed with its Luhn digit, and its VAT form (property)', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{8}$/), (prefix) => {
        const siren = [...Array(10).keys()].map((d) => prefix + d).find(luhnValid)!;
        expect(isValidSiren(siren)).toBe(true);
        expect(isValidSiret(`${siren}00000`)).toBe(luhnValid(`${siren}00000`));
        expect(recognizeFrIdentifier(`FR${frenchVatKey(siren)}${siren}`)).toMatchObject({
          kind: 'number',
          registrationNumber: siren,
        });
      }),
    );
  });
});
