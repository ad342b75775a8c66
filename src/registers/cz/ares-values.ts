// The two checks every ARES parser applies to a value: nothing reaches a user untrimmed, no date unchecked.

/** YYYY-MM-DD of a real calendar day between 1800 and 2100, else null. */
export function aresDate(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value.trim());
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (year < 1800 || year > 2100) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day ? m[0] : null;
}

/** Trimmed, runs of white space made one space; null when empty or not a string. */
export function clean(value: unknown): string | null {
  return typeof value === 'string' ? value.replace(/\s+/g, ' ').trim() || null : null;
}
