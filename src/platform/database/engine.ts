import type { DataSource } from 'typeorm';

/**
 * Whether a data source is the embedded PGlite database rather than a Postgres server: its
 * node-postgres Pool is PGlite's (data-source-options.ts passes it as the driver).
 */
export function isPGlite(dataSource: DataSource): boolean {
  return typeof (dataSource.options as { driver?: unknown }).driver === 'object';
}
