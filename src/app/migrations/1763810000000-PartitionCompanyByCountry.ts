import { MigrationInterface, QueryRunner } from 'typeorm';

const COUNTRIES = ['GB', 'AU', 'CA', 'FR', 'DK', 'NO'];

/** The columns of `company` but the generated `name_rank`, in table order. */
const COLUMNS = `id, country, registration_number, other_numbers, name, name_normalized, status, status_category, legal_form,
  address, city, incorporation_date, source_url, source_kind, dataset_name, produced_at, extra, imported_at`;

/**
 * `company` becomes a table partitioned by country, one partition per register
 * (`company_gb`, `company_no`…). What it buys: the import of a whole register into an empty
 * dataset loads a bare table of its own — no index to keep up row by row, above all not the
 * unique (country, registration number) index, whose numbers come in random order and cost a
 * third of the COPY — builds that table's indexes in one sort each, and swaps it in for the
 * country's partition in one short transaction (src/dataset/import/postgres-bulk-writer.ts).
 * The other countries are not touched, and searches of the country go on meanwhile.
 *
 * Same columns, same names. The keys are the partitions', which hold one country each: its
 * primary key `id`, its unique `registration_number` (the two together what the old table's
 * unique (country, registration_number) was; a writer's ON CONFLICT names the partition), and
 * the other-numbers index. A key on the parent would have to lead with the country, and a sort
 * whose first column never changes cost the load's index build three times as much. The
 * registration number compares byte by byte (COLLATE "C": the same order for numbers of
 * digits and capitals, and sorts with abbreviated keys). Each country's search indexes (rank,
 * words) stay partial on `country = 'XX'`, now on its partition, so that a query with the
 * country inlined still reads them index-only. The rows are copied over with their ids.
 */
export class PartitionCompanyByCountry1763810000000 implements MigrationInterface {
  name = 'PartitionCompanyByCountry1763810000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER SEQUENCE company_id_seq OWNED BY NONE;
      ALTER TABLE company RENAME TO company_unpartitioned;
    `);
    // The same columns, defaults and generated name_rank as the table it replaces.
    await q.query(`
      CREATE TABLE company (LIKE company_unpartitioned INCLUDING DEFAULTS INCLUDING GENERATED) PARTITION BY LIST (country);
      ALTER TABLE company ALTER COLUMN registration_number TYPE text COLLATE "C";
      ALTER SEQUENCE company_id_seq OWNED BY company.id;
    `);
    for (const cc of COUNTRIES) {
      const lc = cc.toLowerCase();
      await q.query(
        `CREATE TABLE company_${lc} PARTITION OF company (CONSTRAINT company_${lc}_pkey PRIMARY KEY (id), CONSTRAINT company_${lc}_number UNIQUE (registration_number)) FOR VALUES IN ('${cc}')`,
      );
    }
    await q.query(`INSERT INTO company (${COLUMNS}) SELECT ${COLUMNS} FROM company_unpartitioned`);
    await q.query(`DROP TABLE company_unpartitioned`);
    for (const cc of COUNTRIES) {
      const lc = cc.toLowerCase();
      await q.query(
        `CREATE INDEX company_${lc}_other_numbers ON company_${lc} USING gin (other_numbers) WHERE other_numbers <> '{}'`,
      );
      await q.query(
        `CREATE INDEX company_rank_${lc} ON company_${lc} (name_rank, registration_number) INCLUDE (id, name_normalized) WHERE country = '${cc}'`,
      );
      await q.query(
        `CREATE INDEX company_words_${lc} ON company_${lc} USING gin (array_to_tsvector(string_to_array(name_normalized, ' '))) WHERE country = '${cc}'`,
      );
      await q.query(`ANALYZE company_${lc}`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER SEQUENCE company_id_seq OWNED BY NONE;
      ALTER TABLE company RENAME TO company_partitioned;
    `);
    // The old names come back on the unpartitioned table.
    for (const cc of COUNTRIES)
      await q.query(`DROP INDEX company_rank_${cc.toLowerCase()}; DROP INDEX company_words_${cc.toLowerCase()}`);
    await q.query(`
      CREATE TABLE company (LIKE company_partitioned INCLUDING DEFAULTS INCLUDING GENERATED,
        CONSTRAINT company_pkey PRIMARY KEY (id),
        CONSTRAINT company_number_per_country UNIQUE (country, registration_number)
      );
      ALTER TABLE company ALTER COLUMN registration_number TYPE text COLLATE "default";
      ALTER SEQUENCE company_id_seq OWNED BY company.id;
      CREATE INDEX company_other_numbers ON company USING gin (other_numbers) WHERE other_numbers <> '{}';
    `);
    await q.query(`INSERT INTO company (${COLUMNS}) SELECT ${COLUMNS} FROM company_partitioned`);
    await q.query(`DROP TABLE company_partitioned`);
    for (const cc of COUNTRIES) {
      const lc = cc.toLowerCase();
      await q.query(
        `CREATE INDEX company_rank_${lc} ON company (name_rank, registration_number) INCLUDE (id, name_normalized) WHERE country = '${cc}'`,
      );
      await q.query(
        `CREATE INDEX company_words_${lc} ON company USING gin (array_to_tsvector(string_to_array(name_normalized, ' '))) WHERE country = '${cc}'`,
      );
    }
  }
}
