import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One row per run of `dataset:import`: which file, which dataset and production date, how
 * many rows were read, written, rejected (with counts per reason). The fallback warning
 * names the newest completed import of a country from here, without counting the company
 * table on every request.
 */
export class CreateDatasetImportTable1763770002000 implements MigrationInterface {
  name = 'CreateDatasetImportTable1763770002000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE dataset_import (
        id             bigserial   PRIMARY KEY,
        country        char(2)     NOT NULL,
        dataset_name   text        NOT NULL,
        format         text        NOT NULL,
        file_name      text        NOT NULL,
        produced_at    timestamptz NOT NULL,
        status         text        NOT NULL CHECK (status IN ('running', 'done', 'failed')),
        started_at     timestamptz NOT NULL DEFAULT now(),
        finished_at    timestamptz,
        rows_read      bigint      NOT NULL DEFAULT 0,
        rows_inserted  bigint      NOT NULL DEFAULT 0,
        rows_updated   bigint      NOT NULL DEFAULT 0,
        rows_unchanged bigint      NOT NULL DEFAULT 0,
        rows_rejected  bigint      NOT NULL DEFAULT 0,
        rows_skipped   bigint      NOT NULL DEFAULT 0,
        dataset_rows   bigint,
        rejections     jsonb,
        error          text
      );
      CREATE INDEX dataset_import_country_done ON dataset_import (country, finished_at DESC) WHERE status = 'done';
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE dataset_import`);
  }
}
