import type { DataSource, EntityManager } from 'typeorm';
import type { CountryCode } from '../registers/register-table';

/**
 * Rebuilds the word dictionary of one country (`company_word`: each folded word of its names
 * with the number of companies whose name holds it) and its company count (`dataset_country`),
 * in one transaction: searches see the old counts or the new ones. Run after every write to
 * the company table (the importer, the seed); counting is one pass over the country's names.
 */
export async function refreshWordCounts(dataSource: DataSource, country: CountryCode): Promise<void> {
  await dataSource.transaction(async (m: EntityManager) => {
    // One pass over millions of names may outlast the pool's statement timeout.
    await m.query(`SET LOCAL statement_timeout = 0`);
    await m.query(`DELETE FROM company_word WHERE country = $1`, [country]);
    await m.query(
      `INSERT INTO company_word (country, word, companies)
       SELECT $1, w, count(*) FROM company, unnest(string_to_array(name_normalized, ' ')) AS w
       WHERE country = $1 GROUP BY w`,
      [country],
    );
    await m.query(
      `INSERT INTO dataset_country (country, companies, refreshed_at) SELECT $1, count(*), now() FROM company WHERE country = $1
       ON CONFLICT (country) DO UPDATE SET companies = EXCLUDED.companies, refreshed_at = EXCLUDED.refreshed_at`,
      [country],
    );
  });
}
