import { RecordRejected } from './dataset-row';

/** Trimmed text, or null when empty (or one of the register's "nothing here" markers). */
export function text(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const t = value.trim();
  return t === '' ? null : t;
}

/** The lines of an address joined into one: empty and null parts skipped, no double commas. */
export function joinAddress(parts: ReadonlyArray<string | null | undefined>): string | null {
  const kept: string[] = [];
  for (const p of parts) {
    const t = text(p)
      ?.replace(/\s+/g, ' ')
      .replace(/^,+|,+$/g, '')
      .trim();
    if (t) kept.push(t);
  }
  return kept.length ? kept.join(', ') : null;
}

function validDate(y: number, m: number, d: number): boolean {
  if (y < 1000 || m < 1 || m > 12 || d < 1) return false;
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return d <= days;
}

function iso(y: number, m: number, d: number): string {
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/**
 * A date written dd/mm/yyyy (Companies House, ASIC) as YYYY-MM-DD; empty → null; anything
 * else (including 31/02/2020) rejects the record.
 */
export function dateDmy(value: string | null | undefined, field: string): string | null {
  const t = text(value);
  if (t === null) return null;
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(t);
  if (!m || !validDate(+m[3], +m[2], +m[1])) throw new RecordRejected('bad date', `${field} "${t}"`);
  return iso(+m[3], +m[2], +m[1]);
}

/** YYYY-MM-DD, or an ISO date-time whose date part is taken (CA open data); empty → null. */
export function dateIso(value: string | null | undefined, field: string): string | null {
  const t = text(value);
  if (t === null) return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/.exec(t);
  if (!m || !validDate(+m[1], +m[2], +m[3])) throw new RecordRejected('bad date', `${field} "${t}"`);
  return iso(+m[1], +m[2], +m[3]);
}

/** YYYYMMDD (ABN bulk extract); empty → null. */
export function dateCompact(value: string | null | undefined, field: string): string | null {
  const t = text(value);
  if (t === null) return null;
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(t);
  if (!m || !validDate(+m[1], +m[2], +m[3])) throw new RecordRejected('bad date', `${field} "${t}"`);
  return iso(+m[1], +m[2], +m[3]);
}

/** A required identifier: present and matching its register's format, else the record is rejected. */
export function requiredNumber(value: string | null | undefined, pattern: RegExp, field: string): string {
  const t = text(value);
  if (t === null) throw new RecordRejected('missing registration number', field);
  if (!pattern.test(t)) throw new RecordRejected('malformed registration number', `${field} "${t.slice(0, 40)}"`);
  return t;
}

export function requiredName(value: string | null | undefined, field: string): string {
  const t = text(value);
  if (t === null) throw new RecordRejected('missing name', field);
  return collapseSpaces(t);
}

const SPACE_TO_COLLAPSE = /\s\s|[^\S ]/;

/**
 * Runs of white space made one space. Most values of a bulk file (millions of names and
 * address parts) have no run to collapse, and the test is cheaper than a replace that finds
 * nothing.
 */
export function collapseSpaces(t: string): string {
  return SPACE_TO_COLLAPSE.test(t) ? t.replace(/\s+/g, ' ') : t;
}

export { compactExtra } from './dataset-row';
