import type { DataSource } from 'typeorm';
import type { CountryCode } from '../registers/registers';
import { companyPartition, partitionIndexes } from './import/search-indexes';

/**
 * Gives every register its partition of `company`, with the keys and search indexes the
 * migration PartitionCompanyByCountry1763810000000 gave the first six: a register added later
 * needs no migration of its own. Idempotent; run after the migrations.
 */
export async function ensureCompanyPartitions(
  dataSource: DataSource,
  countries: readonly CountryCode[],
): Promise<string[]> {
  const created: string[] = [];
  for (const cc of countries) {
    const partition = companyPartition(cc);
    const [{ present }]: Array<{ present: boolean }> = await dataSource.query(
      `SELECT to_regclass($1) IS NOT NULL AS present`,
      [partition],
    );
    if (present) continue;
    await dataSource.transaction(async (m) => {
      // The key constraints as the migration declares them; the other indexes by the same definitions the import builds.
      await m.query(
        `CREATE TABLE ${partition} PARTITION OF company (CONSTRAINT ${partition}_pkey PRIMARY KEY (id), CONSTRAINT ${partition}_number UNIQUE (registration_number)) FOR VALUES IN ('${cc}')`,
      );
      for (const index of partitionIndexes(cc, partition)) if (!index.constraint) await m.query(index.create);
    });
    created.push(partition);
  }
  return created;
}
