import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Where a company's filings must be read from its filing history: a filings stream that could
 * no longer resume (its timepoint too old) missed whatever was filed since this moment, and the
 * company's next read recovers it. Null: nothing to recover.
 */
export class FilingsGap1764200000000 implements MigrationInterface {
  name = 'FilingsGap1764200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE company_snapshot ADD COLUMN filings_gap_since timestamptz`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE company_snapshot DROP COLUMN filings_gap_since`);
  }
}
