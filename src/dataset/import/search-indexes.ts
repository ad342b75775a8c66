import type { CountryCode } from '../../registers/registers';

/** The partition of `company` that holds a country's rows (migration PartitionCompanyByCountry1763810000000). */
export function companyPartition(cc: CountryCode): string {
  return `company_${cc.toLowerCase()}`;
}

export interface PartitionIndex {
  /** Its name on `table`. */
  name: string;
  /** Its name once the table is the country's partition. */
  partitionName: string;
  create: string;
  /** The constraint it backs: added on the index once built, as the migration declares it. */
  constraint?: 'PRIMARY KEY' | 'UNIQUE';
}

/**
 * Every index of a country's partition of `company`, built on `table`, as the migration
 * PartitionCompanyByCountry1763810000000 makes them: the primary key, the unique number, the
 * other numbers, and the country's search indexes, partial on the country so that a query with
 * the country inlined reads them index-only. The import of a whole
 * register into an empty dataset builds them on the table it loads, once the rows are in (one
 * sort each instead of millions of scattered inserts), and renames them when that table takes
 * the partition's place.
 */
export function partitionIndexes(cc: CountryCode, table: string): PartitionIndex[] {
  const lc = cc.toLowerCase();
  const partition = companyPartition(cc);
  const index = (
    suffix: string,
    partitionName: string,
    definition: string,
    constraint?: PartitionIndex['constraint'],
  ): PartitionIndex => {
    const name = table === partition ? partitionName : `${table}_${suffix}`;
    return {
      name,
      partitionName,
      create: `CREATE ${constraint ? 'UNIQUE ' : ''}INDEX ${name} ON ${table} ${definition}`,
      constraint,
    };
  };
  return [
    index(
      'words',
      `company_words_${lc}`,
      `USING gin (array_to_tsvector(string_to_array(name_normalized, ' '))) WHERE country = '${cc}'`,
    ),
    index('number', `${partition}_number`, `(registration_number)`, 'UNIQUE'),
    index(
      'rank',
      `company_rank_${lc}`,
      `(name_rank, registration_number) INCLUDE (id, name_normalized) WHERE country = '${cc}'`,
    ),
    index('pkey', `${partition}_pkey`, `(id)`, 'PRIMARY KEY'),
    index('other_numbers', `${partition}_other_numbers`, `USING gin (other_numbers) WHERE other_numbers <> '{}'`),
  ];
}
