import { normalizeName } from '../dataset/normalize-name';

/** pg_trgm's trigrams of a folded name: each word padded with two spaces before and one after. */
function trigrams(folded: string): Set<string> {
  const set = new Set<string>();
  for (const word of folded.split(' ').filter(Boolean)) {
    const padded = `  ${word} `;
    for (let i = 0; i + 3 <= padded.length; i++) set.add(padded.slice(i, i + 3));
  }
  return set;
}

/**
 * Similarity of two names from 0 to 1, computed as pg_trgm's similarity() on the folded
 * names, so live results rank the way dataset results do.
 */
export function nameSimilarity(a: string, b: string): number {
  const ta = trigrams(normalizeName(a));
  const tb = trigrams(normalizeName(b));
  if (ta.size === 0 || tb.size === 0) return 0;
  let shared = 0;
  for (const t of ta) if (tb.has(t)) shared++;
  return shared / (ta.size + tb.size - shared);
}
