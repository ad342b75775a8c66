import type { DataSource } from 'typeorm';
import { isPGlite } from '../../platform/database/engine';

/** An import on Postgres that has not said it is alive for this long is dead (it beats every HEARTBEAT_MS). */
export const STALE_AFTER_MS = 120_000;
export const HEARTBEAT_MS = 15_000;

/**
 * Records imports that were killed mid-way (their row still says `running`) as `interrupted`,
 * with how far they got. On the embedded database no other process can hold the data
 * directory, so every running import is dead; on Postgres, one whose heartbeat is older than
 * STALE_AFTER_MS. Run at every start and before every import. Returns how many were found.
 */
export async function markInterruptedImports(dataSource: DataSource): Promise<number> {
  const stale = isPGlite(dataSource)
    ? ''
    : `AND coalesce(heartbeat_at, started_at) < now() - interval '${STALE_AFTER_MS / 1000} seconds'`;
  const rows = (await dataSource.query(
    `UPDATE dataset_import SET status = 'interrupted', finished_at = coalesce(heartbeat_at, started_at),
       error = 'the import stopped before the end of the file (process killed or machine stopped); run it again to complete it'
     WHERE status = 'running' ${stale} RETURNING id`,
  )) as unknown[];
  // TypeORM returns [rows, count] for UPDATE … RETURNING on Postgres, the rows on PGlite's pool.
  const list = Array.isArray(rows[0]) ? (rows[0] as unknown[]) : rows;
  return list.length;
}
