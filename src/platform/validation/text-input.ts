import { z } from 'zod';
import type { FieldError } from '../errors/api-error';

/** Text from outside (a receiver's answer) made storable: Postgres text cannot hold U+0000, shown as U+FFFD. */
export function storableText(text: string): string {
  return text.includes('\u0000') ? text.split('\u0000').join('\uFFFD') : text;
}

/** The first string in `value` that holds U+0000, by its path: Postgres text cannot store it. */
export function nulCharacters(value: unknown, path = '', depth = 0): FieldError[] {
  if (typeof value === 'string')
    return value.includes('\u0000')
      ? [{ field: path || '(body)', code: 'nul_character', message: 'must not contain the NUL character (U+0000)' }]
      : [];
  if (!value || typeof value !== 'object' || depth > 20) return [];
  const entries = Array.isArray(value) ? value.map((v, i) => [`[${i}]`, v] as const) : Object.entries(value);
  for (const [key, inner] of entries) {
    const found = nulCharacters(
      inner,
      key.startsWith('[') ? `${path}${key}` : path ? `${path}.${key}` : key,
      depth + 1,
    );
    if (found.length) return found;
  }
  return [];
}

/** The instants every engine here stores: from 1970 to the end of 9999 (PGlite refuses year 10000). */
export const EARLIEST_INSTANT = Date.UTC(1970, 0, 1);
export const LATEST_INSTANT = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

export function isStorableInstant(date: Date): boolean {
  const t = date.getTime();
  return Number.isFinite(t) && t >= EARLIEST_INSTANT && t <= LATEST_INSTANT;
}

/** An ISO 8601 date-time with an offset, between 1970 and 9999; stays the string it was. */
const ISO_DATE_TIME = z.iso.datetime({ offset: true });

export function isoInstant(description = 'an ISO 8601 date-time, e.g. 2026-11-23T10:00:00Z') {
  return z
    .string()
    .meta({ format: 'date-time' })
    .superRefine((value, ctx) => {
      if (!ISO_DATE_TIME.safeParse(value).success) {
        const day = notACalendarDay(value);
        ctx.addIssue({
          code: 'custom',
          message: day ? `${day} is not a day of the calendar` : `must be ${description}`,
        });
      } else if (!isStorableInstant(new Date(value)))
        ctx.addIssue({
          code: 'custom',
          message: 'must be a date-time between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59Z',
        });
    });
}

/** The date of a date-time written in the right shape whose day does not exist (2026-02-30, 2026-13-01). */
function notACalendarDay(value: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T\d{2}:\d{2}/.exec(value);
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day ? null : `${m[1]}-${m[2]}-${m[3]}`;
}

/**
 * A window whose end is not after its start (`since` and `until` swapped, most likely) is
 * refused rather than answered empty: add with `.superRefine(windowInOrder)`.
 */
export function windowInOrder(value: { since?: Date | string; until?: Date | string }, ctx: z.RefinementCtx): void {
  if (value.since !== undefined && value.until !== undefined && new Date(value.until) <= new Date(value.since))
    ctx.addIssue({ code: 'custom', path: ['until'], message: 'must be later than since' });
}
