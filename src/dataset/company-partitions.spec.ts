import type { DataSource } from 'typeorm';
import { createTestDataSource, TestBackend } from '../../test/support/database';
import { COUNTRY_CODES } from '../registers/registers';
import { ensureCompanyPartitions } from './company-partitions';

jest.setTimeout(60_000);

/** A partition's indexes and constraints with its country's names taken out: what "the same partition" means. */
async function shapeOf(dataSource: DataSource, cc: string): Promise<string[]> {
  const lc = cc.toLowerCase();
  const rows: Array<{ def: string }> = await dataSource.query(
    `SELECT indexdef AS def FROM pg_indexes WHERE tablename = $1
     UNION ALL SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = $1::regclass`,
    [`company_${lc}`],
  );
  const names = new RegExp(`(company|company_rank|company_words)_${lc}(?=\\b|_)`, 'g');
  return rows.map((r) => r.def.replace(names, '$1_XX').replaceAll(`'${cc}'`, "'XX'")).sort();
}

describe.each<TestBackend>(['pglite', ...(process.env.DATABASE_URL ? (['postgres'] as const) : [])])(
  'ensureCompanyPartitions on %s',
  (backend) => {
    let dataSource: DataSource;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ dataSource, close } = await createTestDataSource(backend));
    });
    afterAll(() => close());

    it('gives every register a partition', async () => {
      for (const cc of COUNTRY_CODES) {
        const [{ present }] = await dataSource.query(`SELECT to_regclass($1) IS NOT NULL AS present`, [
          `company_${cc.toLowerCase()}`,
        ]);
        expect({ cc, present }).toEqual({ cc, present: true });
      }
      expect(await ensureCompanyPartitions(dataSource, COUNTRY_CODES)).toEqual([]);
    });

    it('makes a missing partition as the migration made the others, and it takes rows', async () => {
      const migrated = await shapeOf(dataSource, 'GB');
      await dataSource.query(`DROP TABLE company_no`);
      expect(await ensureCompanyPartitions(dataSource, COUNTRY_CODES)).toEqual(['company_no']);
      expect(await shapeOf(dataSource, 'NO')).toEqual(migrated);
      await dataSource.query(
        `INSERT INTO company (country, registration_number, name, name_normalized, status_category, source_url, source_kind, dataset_name, produced_at)
         VALUES ('NO', '923609016', 'EQUINOR ASA', 'equinor asa', 'active', 'https://example.org', 'dataset:test', 'test', now())`,
      );
      const [{ n }] = await dataSource.query(`SELECT count(*)::int AS n FROM company_no`);
      expect(n).toBe(1);
    });

    it('makes a missing partition once when processes booting together race for it', async () => {
      await dataSource.query(`DROP TABLE company_no`);
      const made = await Promise.all([1, 2, 3].map(() => ensureCompanyPartitions(dataSource, COUNTRY_CODES)));
      expect(made.flat()).toEqual(['company_no']);
      expect(await shapeOf(dataSource, 'NO')).toEqual(await shapeOf(dataSource, 'GB'));
    });
  },
);
