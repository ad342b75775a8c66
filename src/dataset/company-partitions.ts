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
    const made = await dataSource.transaction(async (m) => {
      // Processes booting together (api and worker, replicas) take turns, and the later ones
      // find the partition made: CREATE TABLE itself does not wait for another's to commit.
      await m.query(`SELECT pg_advisory_xact_lock($1)`, [PARTITION_LOCK_KEY]);
      // Read from pg_class under this statement's snapshot: to_regclass may answer from a
      // catalog cache that has not yet seen the other process's commit.
      const [again]: Array<{ present: boolean }> = await m.query(
        `SELECT EXISTS (SELECT 1 FROM pg_class WHERE relname = $1 AND relnamespace = current_schema()::regnamespace) AS present`,
        [partition],
      );
      if (again.present) return false;
      // The key constraints as the migration declares them; the other indexes by the same definitions the import builds.
      await m.query(
        `CREATE TABLE ${partition} PARTITION OF company (CONSTRAINT ${partition}_pkey PRIMARY KEY (id), CONSTRAINT ${partition}_number UNIQUE (registration_number)) FOR VALUES IN ('${cc}')`,
      );
      for (const index of partitionIndexes(cc, partition)) if (!index.constraint) await m.query(index.create);
      return true;
    });
    if (made) created.push(partition);
  }
  return created;
}

// Any constant works, as long as every process of the service uses the same one.
const PARTITION_LOCK_KEY = 7_336_911_202;
