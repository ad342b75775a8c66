import type { DataSource, EntityManager } from 'typeorm';
import type { CountryCode } from '../registers/registers';
import { isPGlite } from '../platform/database/engine';
import { WordTally } from './word-tally';

/**
 * Rebuilds the word dictionary of one country (`company_word`: each folded word of its names
 * with the number of companies whose name holds it) and its company count (`dataset_country`),
 * in one transaction: searches see the old counts or the new ones. Run after every write to
 * the company table (the importer, the seed); counting is one pass over the country's names,
 * unless the importer kept the counts while the rows went in (`known`).
 */
export async function refreshWordCounts(
  dataSource: DataSource,
  country: CountryCode,
  known: KnownWordCounts | null = null,
): Promise<void> {
  await dataSource.transaction(async (m: EntityManager) => {
    // One pass over millions of names may outlast the pool's statement timeout. On a Postgres
    // server its hash of words fits in memory instead of spilling to disk; not on PGlite, whose
    // WebAssembly heap only grows: the embedded service would keep that memory for good.
    await m.query(`SET LOCAL statement_timeout = 0`);
    if (!known && !isPGlite(dataSource)) await m.query(`SET LOCAL work_mem = '256MB'`);
    await m.query(`DELETE FROM company_word WHERE country = $1`, [country]);
    if (known) await insertWordCounts(m, country, known.words);
    else {
      await m.query(
        `INSERT INTO company_word (country, word, companies)
         SELECT $1, w, count(*) FROM company, unnest(string_to_array(name_normalized, ' ')) AS w
         WHERE country = $1 GROUP BY w`,
        [country],
      );
    }
    const companies = known ? `$2::bigint` : `(SELECT count(*) FROM company WHERE country = $1)`;
    await m.query(
      `INSERT INTO dataset_country (country, companies, refreshed_at) VALUES ($1, ${companies}, now())
       ON CONFLICT (country) DO UPDATE SET companies = EXCLUDED.companies, refreshed_at = EXCLUDED.refreshed_at`,
      known ? [country, known.companies] : [country],
    );
  });
}

/**
 * Adds the words of `names` (folded names of rows just inserted) to the country's counts, and
 * their number to its companies, through `query` (a connection in a transaction of the caller's).
 */
export async function addWordCounts(
  query: (sql: string, params: unknown[]) => Promise<unknown>,
  country: CountryCode,
  names: readonly string[],
): Promise<void> {
  if (names.length === 0) return;
  const tally = new WordTally();
  for (const name of names) tally.add(name);
  const { words } = tally.result()!;
  await query(
    `INSERT INTO company_word (country, word, companies) SELECT $1, w, n FROM unnest($2::text[], $3::int[]) AS t(w, n)
     ON CONFLICT (country, word) DO UPDATE SET companies = company_word.companies + EXCLUDED.companies`,
    [country, [...words.keys()], [...words.values()]],
  );
  await query(`UPDATE dataset_country SET companies = companies + $2, refreshed_at = now() WHERE country = $1`, [
    country,
    names.length,
  ]);
}

/** Word counts a writer kept while the rows went in (see WordTally): the same as counting the table. */
export interface KnownWordCounts {
  words: ReadonlyMap<string, number>;
  companies: number;
}

/** Words per statement: the arrays of one statement stay a few megabytes. */
const WORDS_PER_STATEMENT = 100_000;

async function insertWordCounts(
  m: EntityManager,
  country: CountryCode,
  counts: ReadonlyMap<string, number>,
): Promise<void> {
  let words: string[] = [];
  let companies: number[] = [];
  const flush = async () => {
    await m.query(
      `INSERT INTO company_word (country, word, companies) SELECT $1, w, n FROM unnest($2::text[], $3::int[]) AS t(w, n)`,
      [country, words, companies],
    );
    words = [];
    companies = [];
  };
  for (const [word, n] of counts) {
    words.push(word);
    companies.push(n);
    if (words.length >= WORDS_PER_STATEMENT) await flush();
  }
  if (words.length > 0) await flush();
}
