import type { CountryCode } from '../registers/registers';

/*
 * The query side of the fallback name search, free of SQL execution: which words a query
 * requires, the tiers it is answered in, their tsquery, and the one-edit variants of a word.
 * dataset.service.ts runs the tiers; the migration WordIndexSearch builds the indexes.
 *
 * A name matches a tier when every required term has one of its alternatives among the words
 * of the folded name. Tiers, best first (a later tier only fills what the earlier ones left):
 *   1. exact   — every required word is a word of the name;
 *   2. prefix  — the same, the last word of the query only the beginning of a word (typing);
 *   3. typo    — each word may also be one edit away (a letter deleted, inserted, replaced or
 *                two swapped), a word of the name when split in two, or a prefix (last word).
 * Within a tier, names come in static rank order: fewer words first, then fewer characters,
 * then registration number (name_rank, registration_number: unique, so the order is total
 * and every engine gives the same answer).
 */

export type Alternative = { word: string } | { prefix: string } | { pair: [string, string] };
/** One required term: any of its alternatives. */
export type Term = Alternative[];

export interface Tier {
  name: 'exact' | 'prefix' | 'typo';
  /** Every term is required. */
  terms: Term[];
  /** Fewest words a matching name has (the walk in rank order starts there). */
  minWords: number;
}

export interface ParsedQuery {
  /** Distinct folded words, in query order. */
  words: string[];
  /** The words a name must hold: the distinctive ones, or every word when all are legal forms or particles. */
  required: string[];
  /** The last word of the query when it is required: it may be a word still being typed. */
  last: string | null;
}

/** Most words of a query taken into account (a name rarely has more). */
export const MAX_QUERY_WORDS = 8;

export function parseQuery(folded: string, stopWords: ReadonlySet<string>): ParsedQuery {
  const words = [...new Set(folded.split(' ').filter(Boolean))].slice(0, MAX_QUERY_WORDS);
  const significant = words.filter((w) => !stopWords.has(w));
  const required = significant.length > 0 ? significant : words;
  const lastTyped = folded.split(' ').filter(Boolean).pop() ?? null;
  return { words, required, last: lastTyped !== null && required.includes(lastTyped) ? lastTyped : null };
}

export function exactTier(q: ParsedQuery): Tier {
  return { name: 'exact', terms: q.required.map((w) => [{ word: w }]), minWords: q.required.length };
}

/** Null when the query's last word is not required (a legal form): tier 1 already covers it. */
export function prefixTier(q: ParsedQuery): Tier | null {
  if (q.last === null) return null;
  const last = q.last;
  return {
    name: 'prefix',
    terms: q.required.map((w) => (w === last ? [{ prefix: w }] : [{ word: w }])),
    // The prefix may be met by the same word as another term ("property prop").
    minWords: Math.max(1, q.required.length - 1),
  };
}

/**
 * `known` holds the dictionary words found among the variants (with their company counts):
 * a word's alternatives are itself, its known one-edit variants (the most frequent first, at
 * most `perWord`), its splits into two known words, and for the last word its prefix.
 */
export function typoTier(q: ParsedQuery, known: ReadonlyMap<string, number>, perWord = 40): Tier {
  const terms = q.required.map((w): Term => {
    const alternatives: Term = [w === q.last ? { prefix: w } : { word: w }];
    const close = [...new Set(variantsOf(w))]
      .filter((v) => v !== w && known.has(v) && !(w === q.last && v.startsWith(w)))
      .sort((a, b) => known.get(b)! - known.get(a)! || (a < b ? -1 : 1))
      .slice(0, perWord);
    for (const v of close) alternatives.push({ word: v });
    for (const [a, b] of splits(w)) if (known.has(a) && known.has(b)) alternatives.push({ pair: [a, b] });
    return alternatives;
  });
  // Two neighbouring words typed apart ("brønnøysund registrene"): the word they make together
  // satisfies both terms.
  for (let i = 0; i + 1 < q.required.length; i++) {
    const merged = q.required[i] + q.required[i + 1];
    if (known.has(merged)) {
      terms[i].push({ word: merged });
      terms[i + 1].push({ word: merged });
    }
  }
  return { name: 'typo', terms, minWords: 1 };
}

/** The strings to look up in the dictionary for the typo tier of a query. */
export function typoCandidates(q: ParsedQuery): string[] {
  const out = new Set<string>();
  q.required.forEach((w, i) => {
    if (i + 1 < q.required.length) out.add(w + q.required[i + 1]);
    for (const v of variantsOf(w)) out.add(v);
    for (const [a, b] of splits(w)) {
      out.add(a);
      out.add(b);
    }
  });
  return [...out];
}

/** Longer words are not corrected (no company word is that long; the variants would be many). */
const MAX_CORRECTED_CHARS = 40;

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/**
 * Every string one edit away from `word` (Damerau: delete, transpose, replace, insert) over
 * the folded alphabet (letters a–z, digits, and any other letter the word itself has).
 * Words of one letter have none: too many words are one edit from them.
 */
export function oneEditVariants(word: string): string[] {
  const chars = [...word];
  if (chars.length < 2 || chars.length > MAX_CORRECTED_CHARS) return [];
  const alphabet = [...new Set([...ALPHABET, ...chars])];
  const out: string[] = [];
  const n = chars.length;
  // heads[i]: the first i characters; tails[i]: from the i-th on (by code point).
  const heads = [''];
  for (let i = 0; i < n; i++) heads.push(heads[i] + chars[i]);
  const tails: string[] = new Array(n + 1).fill('');
  for (let i = n - 1; i >= 0; i--) tails[i] = chars[i] + tails[i + 1];
  for (let i = 0; i < n; i++) out.push(heads[i] + tails[i + 1]);
  for (let i = 0; i + 1 < n; i++) {
    if (chars[i] === chars[i + 1]) continue;
    out.push(heads[i] + chars[i + 1] + chars[i] + tails[i + 2]);
  }
  for (let i = 0; i < n; i++) for (const c of alphabet) if (c !== chars[i]) out.push(heads[i] + c + tails[i + 1]);
  for (let i = 0; i <= n; i++) for (const c of alphabet) out.push(heads[i] + c + tails[i]);
  return out;
}

/** The variants of the last few words asked for: typoCandidates and typoTier ask for the same words back to back. */
const recentVariants = new Map<string, string[]>();

function variantsOf(word: string): string[] {
  let variants = recentVariants.get(word);
  if (!variants) {
    variants = oneEditVariants(word);
    if (recentVariants.size >= 16) recentVariants.delete(recentVariants.keys().next().value!);
    recentVariants.set(word, variants);
  }
  return variants;
}

/** A word cut in two (a space left out while typing): both halves of 2+ characters. */
export function splits(word: string): Array<[string, string]> {
  const chars = [...word];
  if (chars.length > MAX_CORRECTED_CHARS) return [];
  const out: Array<[string, string]> = [];
  for (let i = 2; i <= chars.length - 2; i++) out.push([chars.slice(0, i).join(''), chars.slice(i).join('')]);
  return out;
}

/**
 * The tier with each prefix that begins few words replaced by those words (`wordsOf` gives
 * them, or null when they are too many to list): the GIN index reads a prefix by collecting
 * every entry it matches into one bitmap up front, so "uk:*" costs all 765,000 names holding
 * "uk" even when the other term holds a few hundred; a list of plain words is intersected
 * entry by entry, skipping through the long lists. Null when a term is left with no
 * alternative (a prefix no word begins and nothing else): the tier matches no name.
 */
export function expandPrefixes(tier: Tier, wordsOf: (prefix: string) => string[] | null): Tier | null {
  const terms: Term[] = [];
  for (const term of tier.terms) {
    const out: Term = [];
    for (const a of term) {
      const words = 'prefix' in a ? wordsOf(a.prefix) : null;
      if (words === null) out.push(a);
      else for (const word of words) if (!out.some((b) => 'word' in b && b.word === word)) out.push({ word });
    }
    if (out.length === 0) return null;
    terms.push(out);
  }
  return { ...tier, terms };
}

/** Folded words hold letters and digits only; quoting keeps tsquery syntax out of them anyway. */
function lexeme(w: string): string {
  return `'${w.replace(/'/g, "''")}'`;
}

function alternativeQuery(a: Alternative): string {
  if ('word' in a) return lexeme(a.word);
  if ('prefix' in a) return `${lexeme(a.prefix)}:*`;
  return `(${lexeme(a.pair[0])} & ${lexeme(a.pair[1])})`;
}

/** The tier as a tsquery over the words of a name (array_to_tsvector of its folded words). */
export function tsquery(tier: Tier): string {
  return tier.terms
    .map((t) => (t.length === 1 ? alternativeQuery(t[0]) : `(${t.map(alternativeQuery).join(' | ')})`))
    .join(' & ');
}

/**
 * Upper bound of the names a tier matches: the smallest of its terms, a term counting the
 * companies of each alternative (a prefix: of every word it begins, as `prefixCount` says).
 */
export function estimateMatches(tier: Tier, count: (w: string) => number, prefixCount: (p: string) => number): number {
  let best = Infinity;
  for (const term of tier.terms) {
    let sum = 0;
    for (const a of term) {
      if ('word' in a) sum += count(a.word);
      else if ('prefix' in a) sum += prefixCount(a.prefix);
      else sum += Math.min(count(a.pair[0]), count(a.pair[1]));
    }
    best = Math.min(best, sum);
  }
  return best;
}

/** Share of a country's names a tier matches if its terms were independent (for the walk's expected length). */
export function estimateDensity(
  tier: Tier,
  total: number,
  count: (w: string) => number,
  prefixCount: (p: string) => number,
): number {
  if (total <= 0) return 0;
  let p = 1;
  for (const term of tier.terms)
    p *= Math.min(1, estimateMatches({ ...tier, terms: [term] }, count, prefixCount) / total);
  return p;
}

export type StopWords = ReadonlyMap<CountryCode, ReadonlySet<string>>;
