import type { DataSource } from 'typeorm';
import { isPGlite } from '../../platform/database/engine';
import { queryRows } from '../../platform/database/sql';

/** An import on Postgres that has not said it is alive for this long is dead (it beats every HEARTBEAT_MS). */
export const STALE_AFTER_MS = 120_000;
export const HEARTBEAT_MS = 15_000;

export type DatasetImportStatus = 'running' | 'done' | 'failed' | 'interrupted';

/** One import of a country's bulk file (a row of `dataset_import`), as the fallback answers describe it. */
export interface DatasetImport {
  status: DatasetImportStatus;
  datasetName: string;
  producedAt: Date;
  fileName: string;
  startedAt: Date;
  rowsRead: number;
  /** Rows of the dataset for the country once a completed import ended; null otherwise. */
  datasetRows: number | null;
}

/** What a completed import wrote, for its row. */
export interface DatasetImportCounts {
  producedAt: Date;
  rowsRead: number;
  inserted: number;
  updated: number;
  unchanged: number;
  rejected: number;
  skipped: number;
  datasetRows: number;
  /** Rejected rows by reason. */
  rejections: Record<string, number>;
}

interface ImportRow {
  status: DatasetImportStatus;
  dataset_name: string;
  produced_at: Date | string;
  dataset_rows: number | string | null;
  file_name: string;
  started_at: Date | string;
  rows_read: number | string;
}

function toImport(r: ImportRow): DatasetImport {
  return {
    status: r.status,
    datasetName: r.dataset_name,
    producedAt: new Date(r.produced_at),
    fileName: r.file_name,
    startedAt: new Date(r.started_at),
    rowsRead: Number(r.rows_read),
    datasetRows: r.dataset_rows === null ? null : Number(r.dataset_rows),
  };
}

/**
 * The SQL of `dataset_import`: the log of every import (started, alive, done, failed or
 * interrupted) and what the fallback answers read of it. Used by the importer, in or out of
 * the service, so it is built from the DataSource rather than injected.
 */
export class DatasetImportStore {
  constructor(private readonly dataSource: DataSource) {}

  /** Logs an import that starts now; its id. */
  async start(i: {
    country: string;
    datasetName: string;
    format: string;
    fileName: string;
    producedAt: Date;
  }): Promise<number> {
    const rows = await queryRows<{ id: number | string }>(
      this.dataSource,
      `INSERT INTO dataset_import (country, dataset_name, format, file_name, produced_at, status) VALUES ($1, $2, $3, $4, $5, 'running') RETURNING id`,
      [i.country, i.datasetName, i.format, i.fileName, i.producedAt.toISOString()],
    );
    return Number(rows[0].id);
  }

  /** The running import is alive and this far. */
  async heartbeat(id: number, rowsRead: number, rowsRejected: number): Promise<void> {
    await this.dataSource.query(
      `UPDATE dataset_import SET heartbeat_at = now(), rows_read = $2, rows_rejected = $3 WHERE id = $1 AND status = 'running'`,
      [id, rowsRead, rowsRejected],
    );
  }

  async finish(id: number, c: DatasetImportCounts): Promise<void> {
    await this.dataSource.query(
      `UPDATE dataset_import SET status = 'done', finished_at = now(), produced_at = $2, rows_read = $3, rows_inserted = $4,
         rows_updated = $5, rows_unchanged = $6, rows_rejected = $7, rows_skipped = $8, dataset_rows = $9, rejections = $10::jsonb
       WHERE id = $1`,
      [
        id,
        c.producedAt.toISOString(),
        c.rowsRead,
        c.inserted,
        c.updated,
        c.unchanged,
        c.rejected,
        c.skipped,
        c.datasetRows,
        JSON.stringify(c.rejections),
      ],
    );
  }

  async fail(id: number, rowsRead: number, rowsRejected: number, error: Error): Promise<void> {
    await this.dataSource.query(
      `UPDATE dataset_import SET status = 'failed', finished_at = now(), rows_read = $2, rows_rejected = $3, error = $4 WHERE id = $1`,
      [id, rowsRead, rowsRejected, error.message.slice(0, 1000)],
    );
  }

  /**
   * Records imports that were killed mid-way (their row still says `running`) as `interrupted`,
   * with how far they got. On the embedded database no other process can hold the data
   * directory, so every running import is dead; on Postgres, one whose heartbeat is older than
   * STALE_AFTER_MS. Returns how many were found.
   */
  async markInterrupted(): Promise<number> {
    const stale = isPGlite(this.dataSource)
      ? ''
      : `AND coalesce(heartbeat_at, started_at) < now() - interval '${STALE_AFTER_MS / 1000} seconds'`;
    const rows = await queryRows(
      this.dataSource,
      `UPDATE dataset_import SET status = 'interrupted', finished_at = coalesce(heartbeat_at, started_at),
         error = 'the import stopped before the end of the file (process killed or machine stopped); run it again to complete it'
       WHERE status = 'running' ${stale} RETURNING id`,
    );
    return rows.length;
  }

  /**
   * The country's last completed import (with its dataset rows), and its newest import that
   * got to the end of its file or was interrupted (without them): one or both may be missing.
   */
  async latest(country: string): Promise<{ done: DatasetImport | null; newest: DatasetImport | null }> {
    const rows = await queryRows<ImportRow>(
      this.dataSource,
      `(SELECT 'done' AS status, dataset_name, produced_at, dataset_rows, file_name, started_at, rows_read FROM dataset_import
        WHERE country = $1 AND status = 'done' ORDER BY finished_at DESC, id DESC LIMIT 1)
       UNION ALL
       (SELECT status, dataset_name, produced_at, NULL, file_name, started_at, rows_read FROM dataset_import
        WHERE country = $1 AND status IN ('done', 'interrupted') ORDER BY started_at DESC, id DESC LIMIT 1)`,
      [country],
    );
    const done = rows.find((r) => r.status === 'done' && r.dataset_rows !== null);
    const newest = rows.find((r) => r.dataset_rows === null);
    return { done: done ? toImport(done) : null, newest: newest ? toImport(newest) : null };
  }
}
