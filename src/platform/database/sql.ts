import type { DataSource, EntityManager } from 'typeorm';
import { isPGlite } from './engine';

type Queryable = Pick<EntityManager, 'query'>;

/**
 * The rows of a raw query, whatever the statement. TypeORM answers UPDATE and DELETE with
 * `[rows, affected]` and everything else with `rows` — and it goes by the command the driver
 * reports, which is UPDATE for `WITH … UPDATE` on node-postgres but WITH on PGlite. Rows are
 * objects, never arrays, so the two shapes cannot be confused.
 */
export async function queryRows<T>(db: Queryable, sql: string, params: unknown[] = []): Promise<T[]> {
  const result: unknown = await db.query(sql, params);
  if (Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number')
    return result[0] as T[];
  return result as T[];
}

interface NamedQueryPool {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

/**
 * The rows of a statement run often enough that planning it each time shows (the delivery
 * engine's claims and outcomes): on a Postgres server it is prepared once per connection under
 * `name` (node-postgres does that when a query has a name) and its plan reused; PGlite, in the
 * process, runs it as any other. A name is for one SQL text only.
 */
export async function preparedRows<T>(
  dataSource: DataSource,
  name: string,
  sql: string,
  params: unknown[],
): Promise<T[]> {
  if (isPGlite(dataSource)) return queryRows<T>(dataSource, sql, params);
  const pool = (dataSource.driver as unknown as { master: NamedQueryPool }).master;
  const result = await pool.query({ name, text: sql, values: params });
  return result.rows as T[];
}
