/** Small readers for CVR documents: almost every attribute is a history list with a `periode`. */

export type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function objects(value: unknown): Json[] {
  return Array.isArray(value) ? value.filter(isObject) : [];
}

/** A non-empty trimmed string, or null. */
export function text(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/** YYYY-MM-DD from a CVR date or timestamp, or null. */
export function isoDate(value: unknown): string | null {
  const s = text(value);
  return s && /^\d{4}-\d{2}-\d{2}/.test(s) ? s.slice(0, 10) : null;
}

export interface Period {
  from: string | null;
  to: string | null;
}

export function periodOf(entry: Json): Period {
  const p = isObject(entry.periode) ? entry.periode : {};
  return { from: isoDate(p.gyldigFra), to: isoDate(p.gyldigTil) };
}

/**
 * The entry valid now (`gyldigTil` null; the latest-starting one if several), else the entry
 * that ended last: a dissolved company's name and status are in closed periods.
 */
export function currentEntry(list: unknown): Json | null {
  const entries = objects(list);
  if (entries.length === 0) return null;
  const open = entries.filter((e) => periodOf(e).to === null);
  return latest(open.length > 0 ? open : entries);
}

/** True when the entry list is non-empty and none of its periods is open. */
export function allClosed(list: unknown): boolean {
  const entries = objects(list);
  return entries.length > 0 && entries.every((e) => periodOf(e).to !== null);
}

function latest(entries: Json[]): Json {
  // Stable: on equal dates the later entry in the document wins.
  return entries.reduce((best, e) => {
    const a = periodOf(best);
    const b = periodOf(e);
    const keyA = `${a.from ?? ''}|${a.to ?? '9999'}`;
    const keyB = `${b.from ?? ''}|${b.to ?? '9999'}`;
    return keyB >= keyA ? e : best;
  });
}
