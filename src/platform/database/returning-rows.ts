/**
 * The rows of an `UPDATE/DELETE … RETURNING` run through `query()`: TypeORM's Postgres driver
 * answers those with `[rows, rowCount]` (and plain rows for INSERT and SELECT), so reading
 * `result[0]` or `result.length` directly is wrong. Accepts either shape.
 */
export function returningRows<T>(result: unknown): T[] {
  if (Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number')
    return result[0] as T[];
  return result as T[];
}
