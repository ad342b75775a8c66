import type { DataSource } from 'typeorm';

/**
 * Whether a data source is the embedded PGlite database rather than a Postgres server: its
 * driver is PGlite's pool, marked `embedded` (data-source-options.ts).
 */
export function isPGlite(dataSource: DataSource): boolean {
  return (dataSource.options as { driver?: { embedded?: boolean } }).driver?.embedded === true;
}
