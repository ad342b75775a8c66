import type { DataSource } from 'typeorm';
import type { CountryCode } from '../registers/registers';

/**
 * One country's word dictionary in memory (company_word: each folded word of its names and
 * how many companies hold it), so that planning a search — the company count of each query
 * word, of the words a prefix begins, the one-edit corrections that exist — costs no round
 * trip to the database. Words are kept in code-point order (as COLLATE "C" sorts them).
 */
export class WordDictionary {
  private constructor(
    private readonly words: string[],
    private readonly counts: Int32Array,
    /** cumulative[i] = companies of words[0..i). */
    private readonly cumulative: Float64Array,
    readonly total: number,
    readonly version: string,
  ) {}

  static of(rows: Array<{ word: string; companies: number }>, total: number, version: string): WordDictionary {
    const sorted = rows.slice().sort((a, b) => (a.word < b.word ? -1 : a.word > b.word ? 1 : 0));
    const words = sorted.map((r) => r.word);
    const counts = Int32Array.from(sorted, (r) => r.companies);
    const cumulative = new Float64Array(words.length + 1);
    for (let i = 0; i < words.length; i++) cumulative[i + 1] = cumulative[i] + counts[i];
    return new WordDictionary(words, counts, cumulative, total, version);
  }

  get size(): number {
    return this.words.length;
  }

  /** Companies whose name holds the word; 0 when the dictionary does not know it. */
  count(word: string): number {
    const i = this.lowerBound(word);
    return i < this.words.length && this.words[i] === word ? this.counts[i] : 0;
  }

  has(word: string): boolean {
    return this.count(word) > 0;
  }

  /** Words beginning with `prefix` (itself included) and the companies they count (a name may be counted twice). */
  prefix(prefix: string): { words: number; companies: number; first: string[] } {
    const lo = this.lowerBound(prefix);
    // Upper bound by binary search on the prefix's successor.
    const hi = this.lowerBound(prefixEnd(prefix));
    return {
      words: hi - lo,
      companies: this.cumulative[hi] - this.cumulative[lo],
      first: this.words.slice(lo, Math.min(hi, lo + PREFIX_EXPANSION)),
    };
  }

  private lowerBound(w: string): number {
    let lo = 0;
    let hi = this.words.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.words[mid] < w) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** Most words of a prefix listed by `prefix()` (a narrow prefix is searched as the list of its words). */
export const PREFIX_EXPANSION = 20;

/** The smallest string after every string that begins with `prefix` (code-point order, as COLLATE "C"). */
export function prefixEnd(prefix: string): string {
  const chars = [...prefix];
  const last = chars.pop()!;
  return chars.join('') + String.fromCodePoint(last.codePointAt(0)! + 1);
}

/** How often a loaded dictionary checks whether an import has changed it. */
const CHECK_MS = 30_000;

/**
 * The dictionaries of every country, loaded on first use and reloaded when an import (in this
 * process or another) has rebuilt them: `dataset_country.refreshed_at` is their version,
 * checked at most every CHECK_MS without making a search wait.
 */
export class WordDictionaries {
  private readonly loaded = new Map<CountryCode, { dictionary: WordDictionary; checkedAt: number }>();
  private readonly loading = new Map<CountryCode, Promise<WordDictionary>>();

  constructor(private readonly dataSource: DataSource) {}

  async of(cc: CountryCode): Promise<WordDictionary> {
    const entry = this.loaded.get(cc);
    if (entry) {
      if (Date.now() - entry.checkedAt > CHECK_MS) {
        entry.checkedAt = Date.now();
        void this.version(cc)
          .then((v) => (v !== entry.dictionary.version ? this.load(cc) : undefined))
          .catch(() => undefined);
      }
      return entry.dictionary;
    }
    return this.load(cc);
  }

  /** Forgets what is loaded (after an import in this process). */
  invalidate(cc: CountryCode): void {
    this.loaded.delete(cc);
  }

  private load(cc: CountryCode): Promise<WordDictionary> {
    let pending = this.loading.get(cc);
    if (!pending) {
      pending = (async () => {
        const version = await this.version(cc);
        const rows = (await this.dataSource.query(`SELECT word, companies FROM company_word WHERE country = $1`, [
          cc,
        ])) as Array<{ word: string; companies: number | string }>;
        const totals = (await this.dataSource.query(`SELECT companies FROM dataset_country WHERE country = $1`, [
          cc,
        ])) as Array<{ companies: number | string }>;
        const dictionary = WordDictionary.of(
          rows.map((r) => ({ word: r.word, companies: Number(r.companies) })),
          totals.length ? Number(totals[0].companies) : 0,
          version,
        );
        this.loaded.set(cc, { dictionary, checkedAt: Date.now() });
        return dictionary;
      })().finally(() => this.loading.delete(cc));
      this.loading.set(cc, pending);
    }
    return pending;
  }

  private async version(cc: CountryCode): Promise<string> {
    const rows = (await this.dataSource.query(
      `SELECT refreshed_at::text AS v FROM dataset_country WHERE country = $1`,
      [cc],
    )) as Array<{ v: string }>;
    return rows[0]?.v ?? 'none';
  }
}
