const SPECIAL_LETTERS: Record<string, string> = {
  ø: 'o', æ: 'ae', œ: 'oe', ß: 'ss', đ: 'd', ð: 'd', þ: 'th', ł: 'l', ı: 'i', ŧ: 't', ħ: 'h',
};

/**
 * The form names are compared in: accents and case folded (Æ→ae, Ø→o, é→e, ß→ss),
 * punctuation turned into spaces, spaces collapsed. The same function prepares stored names
 * and queries, so "Sesam Stasjon AS", "SESAM-STASJON A/S" and "sésam stasjon as" meet.
 */
export function normalizeName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[øæœßđðþłıŧħ]/g, (c) => SPECIAL_LETTERS[c])
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}
