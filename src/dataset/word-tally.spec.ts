import { WordTally } from './word-tally';

describe('WordTally', () => {
  it('counts the words of folded names as the SQL refresh does: split on spaces, repeats counted, none for an empty name', () => {
    const tally = new WordTally();
    for (const name of ['acme ltd', 'acme acme holdings ltd', '']) tally.add(name);
    expect(tally.result()).toEqual({
      words: new Map([
        ['acme', 3],
        ['ltd', 2],
        ['holdings', 1],
      ]),
      companies: 3,
    });
  });

  it('counts an empty word between two spaces, as string_to_array does', () => {
    const tally = new WordTally();
    tally.add('a  b ');
    expect(tally.result()?.words).toEqual(
      new Map([
        ['a', 1],
        ['', 2],
        ['b', 1],
      ]),
    );
  });

  it('has no result once abandoned', () => {
    const tally = new WordTally();
    tally.add('acme ltd');
    tally.abandon();
    tally.add('other ltd');
    expect(tally.result()).toBeNull();
  });
});
