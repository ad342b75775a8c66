import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An import killed mid-way is recorded as `interrupted` at the next start (instead of staying
 * `running` forever); `heartbeat_at` is how a process on Postgres tells a live import in
 * another process from a dead one.
 */
export class DatasetImportInterrupted1763780001000 implements MigrationInterface {
  name = 'DatasetImportInterrupted1763780001000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE dataset_import DROP CONSTRAINT dataset_import_status_check;
      ALTER TABLE dataset_import ADD CONSTRAINT dataset_import_status_check CHECK (status IN ('running', 'done', 'failed', 'interrupted'));
      ALTER TABLE dataset_import ADD COLUMN heartbeat_at timestamptz;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      UPDATE dataset_import SET status = 'failed' WHERE status = 'interrupted';
      ALTER TABLE dataset_import DROP COLUMN heartbeat_at;
      ALTER TABLE dataset_import DROP CONSTRAINT dataset_import_status_check;
      ALTER TABLE dataset_import ADD CONSTRAINT dataset_import_status_check CHECK (status IN ('running', 'done', 'failed'));
    `);
  }
}
