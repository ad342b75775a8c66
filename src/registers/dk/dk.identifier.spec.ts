import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fixture, FIXTURES } from '../../../test/support/fake-register';
import { isValidCvr, recognizeDkIdentifier } from './dk.identifier';

/** Every CVR number that occurs in the recorded CVR responses (companies and related companies). */
function realCvrNumbers(): string[] {
  const found = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key === 'cvrNummer' && value !== null) found.add(String(value));
        walk(value);
      }
    }
  };
  const dir = join(FIXTURES, 'registers', 'dk');
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json') && !f.includes('derived'))) {
    walk(JSON.parse(fixture(`registers/dk/${file}`)));
  }
  return [...found].sort();
}

function oneDigitMutations(digits: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < digits.length; i++) {
    for (let d = 0; d <= 9; d++) {
      if (String(d) !== digits[i]) out.push(digits.slice(0, i) + d + digits.slice(i + 1));
    }
  }
  return out;
}

describe('recognizeDkIdentifier', () => {
  const real = realCvrNumbers();

  it('finds the real CVR numbers of the fixtures', () => {
    expect(real).toEqual(
      expect.arrayContaining([
        '25052943',
        '41774037',
        '11617034',
        '35682872',
        '42611433',
        '34689733',
        '44477378',
        '32075541',
        '21016632',
      ]),
    );
    expect(real.length).toBeGreaterThanOrEqual(11);
  });

  it.each(realCvrNumbers())('accepts the real CVR number %s', (cvr) => {
    expect(recognizeDkIdentifier(cvr)).toEqual({ kind: 'number', registrationNumber: cvr, scheme: 'cvr' });
  });

  it('rejects every one-digit mutation of every real CVR number with a check-digit message', () => {
    for (const cvr of real) {
      for (const mutated of oneDigitMutations(cvr)) {
        expect(isValidCvr(mutated)).toBe(false);
        const match = recognizeDkIdentifier(mutated);
        expect(match.kind).toBe('invalid');
        if (match.kind === 'invalid') expect(match.message).toMatch(/check digit is wrong/);
      }
    }
  });

  it.each([
    ['25 05 29 43'],
    ['25.05.29.43'],
    ['2505-2943'],
    ['DK25052943'],
    ['DK 25052943'],
    ['dk-25 05 29 43'],
    ['CVR 25052943'],
    ['CVR-nr. 25052943'],
    ['CVR nr: 25052943'],
    ['  25052943  '],
  ])('accepts separators and prefixes: %s', (query) => {
    expect(recognizeDkIdentifier(query)).toEqual({ kind: 'number', registrationNumber: '25052943', scheme: 'cvr' });
  });

  it('reports a labelled number of the wrong length as invalid, and leaves bare ones to the name search', () => {
    expect(recognizeDkIdentifier('DK 2505294')).toEqual({
      kind: 'invalid',
      message: expect.stringContaining('8 digits'),
    });
    expect(recognizeDkIdentifier('CVR 250529430').kind).toBe('invalid');
    expect(recognizeDkIdentifier('2505294')).toEqual({ kind: 'name' });
    expect(recognizeDkIdentifier('1508')).toEqual({ kind: 'name' });
  });

  it.each([['7-Eleven'], ['3M Danmark A/S'], ['MAGENTA ApS'], ['DK Hostmaster'], ['CVR Consult'], ['Danske Bank']])(
    'keeps names as names: %s',
    (name) => {
      expect(recognizeDkIdentifier(name)).toEqual({ kind: 'name' });
    },
  );
});
