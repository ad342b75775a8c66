import { z } from 'zod';
import { isoInstant, isStorableInstant } from './validation/text-input';

/** Where a page ends in a list ordered by (created_at DESC, id DESC). */
export interface Cursor {
  createdAt: Date;
  id: string;
}

export function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify([c.createdAt.toISOString(), c.id])).toString('base64url');
}

/** The opaque cursor of a previous page; anything else is refused (never a 500). */
export const cursorSchema = z
  .string()
  .max(200)
  .transform((text, ctx) => {
    try {
      const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
      if (
        Array.isArray(value) &&
        value.length === 2 &&
        typeof value[0] === 'string' &&
        typeof value[1] === 'string' &&
        /^[a-z]+_[0-9A-Za-z]{22}$/.test(value[1])
      ) {
        const createdAt = new Date(value[0]);
        if (isStorableInstant(createdAt)) return { createdAt, id: value[1] } as Cursor;
      }
    } catch {
      /* fall through */
    }
    ctx.addIssue({ code: 'custom', message: 'not a cursor this API gave out (use nextCursor of the previous page)' });
    return z.NEVER;
  });

const LIMIT_RANGE = 'must be a whole number from 1 to 100';

/** The query parameters every list shares: limit (1–100, default 50), cursor, a created_at window. */
export const pageQuery = {
  limit: z.coerce
    .number({ error: LIMIT_RANGE })
    .int({ error: LIMIT_RANGE })
    .min(1, { error: LIMIT_RANGE })
    .max(100, { error: LIMIT_RANGE })
    .default(50),
  cursor: cursorSchema.optional(),
  since: isoInstant()
    .transform((v) => new Date(v))
    .optional(),
  until: isoInstant()
    .transform((v) => new Date(v))
    .optional(),
};

/** SQL conditions for the cursor and the window, from parameter number `from` on. */
export function pageConditions(
  q: { cursor?: Cursor; since?: Date; until?: Date },
  from: number,
  alias = '',
): { sql: string; params: unknown[] } {
  const a = alias ? `${alias}.` : '';
  const parts: string[] = [];
  const params: unknown[] = [];
  if (q.since) parts.push(`${a}created_at >= $${from + params.push(q.since) - 1}`);
  if (q.until) parts.push(`${a}created_at < $${from + params.push(q.until) - 1}`);
  if (q.cursor) {
    const t = from + params.push(q.cursor.createdAt) - 1;
    const i = from + params.push(q.cursor.id) - 1;
    parts.push(`(${a}created_at, ${a}id) < ($${t}, $${i})`);
  }
  return { sql: parts.map((p) => ` AND ${p}`).join(''), params };
}

/** The page of `rows` (fetched with limit + 1) and the cursor of the next one. */
export function page<T>(
  rows: T[],
  limit: number,
  cursorOf: (row: T) => Cursor,
): { rows: T[]; nextCursor: string | null } {
  if (rows.length <= limit) return { rows, nextCursor: null };
  const kept = rows.slice(0, limit);
  return { rows: kept, nextCursor: encodeCursor(cursorOf(kept[kept.length - 1])) };
}
