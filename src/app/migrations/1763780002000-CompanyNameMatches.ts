import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The GIN read of the name search as a function whose plan can only be a bitmap scan of the
 * country's word index. The planner cannot estimate how many names an OR of dozens of words
 * (a typo's corrections) holds — it guesses hundreds of thousands and walks a whole index
 * instead; the caller knows from the dictionary that they are a few thousand at most. The SQL
 * is built per call with the country as a literal, so the partial index applies. Names that
 * begin with `lead` (the query's words in the order typed) come first, then rank order.
 */
export class CompanyNameMatches1763780002000 implements MigrationInterface {
  name = 'CompanyNameMatches1763780002000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION company_name_matches(cc text, driver tsquery, q tsquery, k integer, lead text)
      RETURNS TABLE (id bigint, leads boolean, name_rank integer, registration_number text)
      LANGUAGE plpgsql STABLE
      SET enable_seqscan = off SET enable_indexscan = off SET enable_indexonlyscan = off SET jit = off
      AS $fn$
      BEGIN
        IF cc !~ '^[A-Z]{2}$' THEN RAISE EXCEPTION 'bad country %', cc; END IF;
        RETURN QUERY EXECUTE format(
          'SELECT m.id, starts_with(m.name_normalized, $4), m.name_rank, m.registration_number FROM (
             SELECT c.id, c.name_rank, c.registration_number, c.name_normalized FROM company c
             WHERE c.country = %L AND array_to_tsvector(string_to_array(c.name_normalized, '' '')) @@ $1
             OFFSET 0
           ) m
           WHERE array_to_tsvector(string_to_array(m.name_normalized, '' '')) @@ $2
           ORDER BY starts_with(m.name_normalized, $4) DESC, m.name_rank, m.registration_number
           LIMIT $3', cc)
        USING driver, q, k, lead;
      END
      $fn$
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION company_name_matches(text, tsquery, tsquery, integer, text)`);
  }
}
