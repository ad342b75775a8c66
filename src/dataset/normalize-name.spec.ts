import fc from 'fast-check';
import { normalizeName } from './normalize-name';

/** The general folding, without the ASCII shortcut: what the shortcut must agree with. */
function reference(name: string): string {
  const special: Record<string, string> = {
    ø: 'o',
    æ: 'ae',
    œ: 'oe',
    ß: 'ss',
    đ: 'd',
    ð: 'd',
    þ: 'th',
    ł: 'l',
    ı: 'i',
    ŧ: 't',
    ħ: 'h',
  };
  return name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[øæœßđðþłıŧħ]/g, (c) => special[c])
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

describe('normalizeName', () => {
  it('folds accents, case and punctuation', () => {
    expect(normalizeName('SESAM-STASJON A/S')).toBe('sesam stasjon a s');
    expect(normalizeName('Brønnøysundregistrene')).toBe('bronnoysundregistrene');
    expect(normalizeName('  Société Générale, S.A. ')).toBe('societe generale s a');
  });

  it('gives the same folding on the ASCII shortcut as the general path, for any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary-ascii', maxLength: 60 }), (s) => normalizeName(s) === reference(s)),
      { numRuns: 5000 },
    );
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 30 }), (s) => normalizeName(s) === reference(s)),
      { numRuns: 2000 },
    );
  });
});
