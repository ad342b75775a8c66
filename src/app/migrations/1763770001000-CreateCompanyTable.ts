import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The fallback dataset. Name search is trigram similarity on an accent- and case-folded
 * name; one partial GIN index per country keeps each index small and lets the planner use
 * it with the country filter (the country code is inlined by the query builder, never
 * taken from user input).
 */
export class CreateCompanyTable1763770001000 implements MigrationInterface {
  name = 'CreateCompanyTable1763770001000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);
    await q.query(`
      CREATE TABLE company (
        id                  bigserial PRIMARY KEY,
        country             char(2)     NOT NULL,
        registration_number text        NOT NULL,
        other_numbers       text[]      NOT NULL DEFAULT '{}',
        name                text        NOT NULL,
        name_normalized     text        NOT NULL,
        status              text,
        status_category     text        NOT NULL,
        legal_form          text,
        address             text,
        city                text,
        incorporation_date  date,
        source_url          text        NOT NULL,
        source_kind         text        NOT NULL,
        dataset_name        text        NOT NULL,
        produced_at         timestamptz NOT NULL,
        extra               jsonb,
        imported_at         timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT company_number_per_country UNIQUE (country, registration_number)
      );
      CREATE INDEX company_other_numbers ON company USING gin (other_numbers);
    `);
    for (const cc of ['GB', 'AU', 'CA', 'FR', 'DK', 'NO']) {
      await q.query(
        `CREATE INDEX company_name_trgm_${cc.toLowerCase()} ON company USING gin (name_normalized gin_trgm_ops) WHERE country = '${cc}'`,
      );
    }
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE company`);
  }
}
