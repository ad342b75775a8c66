const SPECIAL_LETTERS: Record<string, string> = {
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

// eslint-disable-next-line no-control-regex -- every ASCII character, controls included
const ASCII = /^[\x00-\x7f]*$/;
const NOT_ALNUM_ASCII = /[^a-z0-9]+/g;

/**
 * The form names are compared in: accents and case folded (Æ→ae, Ø→o, é→e, ß→ss),
 * punctuation turned into spaces, spaces collapsed. The same function prepares stored names
 * and queries, so "Sesam Stasjon AS", "SESAM-STASJON A/S" and "sésam stasjon as" meet.
 */
export function normalizeName(name: string): string {
  // Plain ASCII (most names of most registers): no accents to strip, no special letters.
  if (ASCII.test(name)) return name.toLowerCase().replace(NOT_ALNUM_ASCII, ' ').trim();
  return name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[øæœßđðþłıŧħ]/g, (c) => SPECIAL_LETTERS[c])
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}
