import type { EntityManager } from 'typeorm';

type Queryable = Pick<EntityManager, 'query'>;

/**
 * The rows of a raw query, whatever the statement. TypeORM answers UPDATE and DELETE with
 * `[rows, affected]` and everything else with `rows` — and it goes by the command the driver
 * reports, which is UPDATE for `WITH … UPDATE` on node-postgres but WITH on PGlite. Rows are
 * objects, never arrays, so the two shapes cannot be confused.
 */
export async function queryRows<T>(db: Queryable, sql: string, params: unknown[] = []): Promise<T[]> {
  const result: unknown = await db.query(sql, params);
  if (Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number') return result[0] as T[];
  return result as T[];
}
