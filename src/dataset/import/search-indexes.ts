import type { CountryCode } from '../../registers/register-table';

/**
 * The name-search indexes of one country, as migration WordIndexSearch1763780000000 creates
 * them: the import of a whole register into an empty dataset drops them and builds them again
 * once the rows are in (one sort instead of millions of scattered inserts).
 */
export function searchIndexes(cc: CountryCode): Array<{ name: string; create: string }> {
  const lc = cc.toLowerCase();
  return [
    {
      name: `company_rank_${lc}`,
      create: `CREATE INDEX IF NOT EXISTS company_rank_${lc} ON company (name_rank, registration_number) INCLUDE (id, name_normalized) WHERE country = '${cc}'`,
    },
    {
      name: `company_words_${lc}`,
      create: `CREATE INDEX IF NOT EXISTS company_words_${lc} ON company USING gin (array_to_tsvector(string_to_array(name_normalized, ' '))) WHERE country = '${cc}'`,
    },
  ];
}
