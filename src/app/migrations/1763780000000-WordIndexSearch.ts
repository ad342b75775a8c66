import { MigrationInterface, QueryRunner } from 'typeorm';

const COUNTRIES = ['GB', 'AU', 'CA', 'FR', 'DK', 'NO'];

/**
 * Name search by words instead of trigrams (see src/dataset/name-search.ts):
 * - `name_rank`: the static rank of a name, fewer words and then fewer characters first,
 *   computed by Postgres from the folded name, so every writer agrees on it;
 * - per country, a btree on (name_rank, registration_number) that holds the folded name, so a
 *   search can walk names in rank order and stop at the first matches;
 * - per country, a GIN index of the name's words (a tsvector of the folded words, no
 *   stemming) for searches whose words are rare;
 * - `company_word`: every folded word of a country's names with the number of companies whose
 *   name holds it, to choose between the two and to correct typos; `dataset_country` the
 *   number of companies per country. The importer and the seed keep both up to date.
 * The trigram indexes go: they scored every match of a common word, and kept imports slow.
 */
export class WordIndexSearch1763780000000 implements MigrationInterface {
  name = 'WordIndexSearch1763780000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE company ADD COLUMN name_rank integer GENERATED ALWAYS AS
        (cardinality(string_to_array(name_normalized, ' ')) * 1024 + least(length(name_normalized), 1023)) STORED;
      CREATE TABLE company_word (
        country   char(2) NOT NULL,
        word      text COLLATE "C" NOT NULL,
        companies integer NOT NULL,
        PRIMARY KEY (country, word)
      );
      CREATE TABLE dataset_country (
        country      char(2) PRIMARY KEY,
        companies    bigint  NOT NULL,
        refreshed_at timestamptz NOT NULL DEFAULT now()
      );
      DROP INDEX company_other_numbers;
      CREATE INDEX company_other_numbers ON company USING gin (other_numbers) WHERE other_numbers <> '{}';
    `);
    for (const cc of COUNTRIES) {
      const lc = cc.toLowerCase();
      await q.query(`DROP INDEX IF EXISTS company_name_trgm_${lc}`);
      await q.query(
        `CREATE INDEX company_rank_${lc} ON company (name_rank, registration_number) INCLUDE (id, name_normalized) WHERE country = '${cc}'`,
      );
      await q.query(
        `CREATE INDEX company_words_${lc} ON company USING gin (array_to_tsvector(string_to_array(name_normalized, ' '))) WHERE country = '${cc}'`,
      );
    }
    await q.query(`
      INSERT INTO company_word (country, word, companies)
      SELECT country, w, count(*) FROM company, unnest(string_to_array(name_normalized, ' ')) AS w GROUP BY country, w;
      INSERT INTO dataset_country (country, companies) SELECT country, count(*) FROM company GROUP BY country;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const cc of COUNTRIES) {
      const lc = cc.toLowerCase();
      await q.query(`DROP INDEX IF EXISTS company_rank_${lc}; DROP INDEX IF EXISTS company_words_${lc}`);
      await q.query(
        `CREATE INDEX company_name_trgm_${lc} ON company USING gin (name_normalized gin_trgm_ops) WHERE country = '${cc}'`,
      );
    }
    await q.query(`
      DROP INDEX company_other_numbers;
      CREATE INDEX company_other_numbers ON company USING gin (other_numbers);
      DROP TABLE dataset_country;
      DROP TABLE company_word;
      ALTER TABLE company DROP COLUMN name_rank;
    `);
  }
}
