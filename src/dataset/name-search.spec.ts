import {
  exactTier,
  expandPrefixes,
  oneEditVariants,
  parseQuery,
  prefixTier,
  splits,
  tsquery,
  typoCandidates,
  typoTier,
} from './name-search';

const STOP = new Set(['ltd', 'limited', 'the']);

describe('name search tiers', () => {
  it('requires the distinctive words, or every word when there is no other', () => {
    expect(parseQuery('acme widgets ltd', STOP)).toEqual({
      words: ['acme', 'widgets', 'ltd'],
      required: ['acme', 'widgets'],
      last: null,
    });
    expect(parseQuery('the ltd', STOP)).toEqual({ words: ['the', 'ltd'], required: ['the', 'ltd'], last: 'ltd' });
    expect(parseQuery('acme acme wid', STOP).required).toEqual(['acme', 'wid']);
  });

  it('writes each tier as a tsquery over the words of a name', () => {
    const q = parseQuery('acme wid', STOP);
    expect(tsquery(exactTier(q))).toBe("'acme' & 'wid'");
    expect(tsquery(prefixTier(q)!)).toBe("'acme' & 'wid':*");
    expect(prefixTier(parseQuery('acme ltd', STOP))).toBeNull();
    const known = new Map([
      ['acne', 5],
      ['acre', 9],
      ['ac', 1],
      ['me', 1],
    ]);
    expect(tsquery(typoTier(q, known))).toBe("('acme' | 'acre' | 'acne' | ('ac' & 'me')) & 'wid':*");
  });

  it('lets two words typed apart match the word they make together', () => {
    const q = parseQuery('sesam stasjon', STOP);
    expect(typoCandidates(q)).toContain('sesamstasjon');
    expect(tsquery(typoTier(q, new Map([['sesamstasjon', 1]])))).toBe(
      "('sesam' | 'sesamstasjon') & ('stasjon':* | 'sesamstasjon')",
    );
  });

  it('lists the words a narrow prefix begins in its place, and drops a term no word can meet', () => {
    const tier = typoTier(
      parseQuery('deuctive uk', STOP),
      new Map([
        ['deductive', 3],
        ['bk', 2],
      ]),
    );
    const words: Record<string, string[] | null> = { uk: ['uk', 'ukraine'], deu: null };
    expect(tsquery(expandPrefixes(tier, (p) => words[p] ?? null)!)).toBe(
      "('deuctive' | 'deductive') & ('uk' | 'ukraine' | 'bk')",
    );
    // Too many words to list: the prefix stays a prefix.
    expect(tsquery(expandPrefixes(tier, () => null)!)).toBe(tsquery(tier));
    // A prefix no word begins, alone in its term: nothing can match.
    expect(expandPrefixes(prefixTier(parseQuery('acme zzq', STOP))!, () => [])).toBeNull();
  });

  it('makes every one-edit variant: deletion, transposition, replacement, insertion', () => {
    const v = new Set(oneEditVariants('acme'));
    for (const w of ['cme', 'ame', 'acm', 'came', 'amce', 'acem', 'acne', 'xcme', 'acmes', 'aacme'])
      expect(v).toContain(w);
    expect(v).not.toContain('acme x');
    expect(oneEditVariants('a')).toEqual([]);
    expect(oneEditVariants('x'.repeat(41))).toEqual([]);
    expect(new Set(oneEditVariants('ørn'))).toContain('ørm');
    expect(splits('abcdef')).toEqual([
      ['ab', 'cdef'],
      ['abc', 'def'],
      ['abcd', 'ef'],
    ]);
  });
});
