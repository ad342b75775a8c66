'use strict';
/*
 * The query classes of issue 12's table, made from rows of a file written by
 * bulk-generator.js (row i's name is nameOf(i), its number gbNumberOf(i)), and how each is
 * judged. Used by bench/national-scale.js (through HTTP) and by the search-quality test.
 *
 * - rare:   one word of a real name that at most `limit` names hold (the dictionary says);
 *           found = the company is among the results.
 * - exact:  a two-word name as registered, without its legal form ("Orchard Lush");
 *           found = the company is among the results; found-or-identical also counts a result
 *           with exactly its name but for the legal form, which the query leaves out (nobody
 *           can tell "ORCHARD LUSH LTD" from "ORCHARD LUSH LIMITED" by that query).
 * - common: only very common words ("uk", "holdings services"); timed, not judged.
 * - typo:   a real name without its legal form, one word of 4+ letters changed by one edit
 *           (a letter deleted, inserted, replaced, or two swapped); judged as exact.
 * - prefix: the first one or two words of a real name, the last one cut to 3+ letters
 *           ("orchard lu"); found-or-ambiguous also counts a query that at least `limit`
 *           names begin with (no ranking can single one of them out).
 * - number: the company's registration number; found = the first result.
 */
const { COMPANY_WORDS, nameOf, gbNumberOf, rng } = require('./bulk-generator');

const LEGAL = new Set(['LIMITED', 'LTD', 'LLP', 'PLC']);

function fold(name) {
  return name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** The folded name without its legal form: what a query that leaves the legal form out can tell apart. */
function withoutLegalForm(name) {
  return fold(name)
    .split(' ')
    .filter((w) => !LEGAL.has(w.toUpperCase()))
    .join(' ');
}

function words(i) {
  return nameOf(i)
    .split(' ')
    .filter((w) => !LEGAL.has(w));
}

function titleCase(s) {
  return s.toLowerCase().replace(/\b\p{L}/gu, (c) => c.toUpperCase());
}

function oneEdit(word, r) {
  const i = Math.floor(r() * word.length);
  const letter = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'[Math.floor(r() * 26)];
  switch (Math.floor(r() * 4)) {
    case 0:
      return word.slice(0, i) + word.slice(i + 1);
    case 1:
      return word.slice(0, i) + letter + word.slice(i);
    case 2:
      return word.slice(0, i) + (letter === word[i] ? 'Z' : letter) + word.slice(i + 1);
    default: {
      const j = Math.min(i, word.length - 2);
      if (word[j] === word[j + 1]) return word.slice(0, j) + word.slice(j + 1);
      return word.slice(0, j) + word[j + 1] + word[j] + word.slice(j + 2);
    }
  }
}

/**
 * `counts(words)` resolves to a Map word → companies (the dictionary), `beginning(prefix,
 * limit)` to how many names begin with a folded prefix, up to `limit`.
 */
async function buildClasses({ rows, perClass, limit, counts, beginning, seed = 7 }) {
  const r = rng(seed);
  const pick = () => Math.floor(r() * rows);
  const classes = { rare: [], exact: [], common: [], typo: [], prefix: [], number: [] };

  for (let tries = 0; classes.rare.length < perClass && tries < perClass * 200; tries++) {
    const i = pick();
    const candidates = words(i).filter((w) => !COMPANY_WORDS.includes(w));
    const known = await counts(candidates.map(fold));
    const rare = candidates.filter((w) => (known.get(fold(w)) ?? 0) <= limit);
    if (rare.length) classes.rare.push({ q: rare[0].toLowerCase(), i });
  }
  for (let tries = 0; classes.exact.length < perClass && tries < perClass * 50; tries++) {
    const i = pick();
    const w = words(i);
    if (w.length === 2) classes.exact.push({ q: titleCase(w.join(' ')), i });
  }
  const top = [...(await topWords())];
  for (let k = 0; classes.common.length < perClass; k++) {
    const a = top[Math.floor(r() * top.length)];
    const b = top[Math.floor(r() * top.length)];
    classes.common.push({ q: (r() < 0.5 || a === b ? a : `${a} ${b}`).toLowerCase(), i: -1 });
  }
  for (let tries = 0; classes.typo.length < perClass && tries < perClass * 50; tries++) {
    const i = pick();
    const w = words(i);
    const long = w.map((x, k) => [x, k]).filter(([x]) => x.length >= 4);
    if (!long.length) continue;
    const [word, k] = long[Math.floor(r() * long.length)];
    w[k] = oneEdit(word, r);
    classes.typo.push({ q: w.join(' ').toLowerCase(), i });
  }
  for (let tries = 0; classes.prefix.length < perClass && tries < perClass * 50; tries++) {
    const i = pick();
    const w = words(i);
    const n = Math.min(w.length, r() < 0.5 ? 1 : 2);
    const lastWord = w[n - 1];
    if (lastWord.length < 3) continue;
    const cut = 3 + Math.floor(r() * (lastWord.length - 2));
    const q = [...w.slice(0, n - 1), lastWord.slice(0, cut)].join(' ').toLowerCase();
    classes.prefix.push({ q, i, ambiguous: (await beginning(fold(q), limit)) >= limit });
  }
  for (let k = 0; k < perClass; k++) {
    const i = pick();
    classes.number.push({ q: gbNumberOf(i), i });
  }

  async function topWords() {
    // The most frequent words of the vocabulary and the company words: what names share most.
    const { vocabulary } = require('./bulk-generator');
    return new Set([...vocabulary().words.slice(0, 12), ...COMPANY_WORDS.slice(0, 12), 'LIMITED']);
  }
  return classes;
}

/** Judges one answer (an array of { name, registrationNumber }) of a query of a class. */
function judge(kind, query, results) {
  if (query.i < 0) return { found: null, loose: null };
  const number = gbNumberOf(query.i);
  const found =
    kind === 'number'
      ? results[0]?.registrationNumber === number
      : results.some((r) => r.registrationNumber === number);
  let loose = found;
  if (!found && (kind === 'exact' || kind === 'typo'))
    loose = results.some((r) => withoutLegalForm(r.name) === withoutLegalForm(nameOf(query.i)));
  if (!found && kind === 'prefix') loose = query.ambiguous;
  return { found, loose };
}

module.exports = { buildClasses, judge, fold };
