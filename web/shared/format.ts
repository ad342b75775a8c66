/** 2026-11-22T10:15:30.123Z → "2026-11-22 10:15 UTC": one unambiguous form for every reader. */
export function utc(iso: string, withSeconds = false): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.toISOString().slice(0, 10)} ${d.toISOString().slice(11, withSeconds ? 19 : 16)} UTC`;
}

/** 720 → "12 minutes"; rounded up, so a wait is never announced shorter than it is. */
export function duration(seconds: number): string {
  const s = Math.max(1, Math.ceil(seconds));
  if (s < 60) return plural(s, 'second');
  const minutes = Math.ceil(s / 60);
  if (minutes < 90) return plural(minutes, 'minute');
  return plural(Math.ceil(minutes / 60), 'hour');
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * 0.99999 → "99.99%", never "100%": a share is truncated, so only a perfect record reads
 * 100%; null (nothing measured) → null.
 */
export function percent(share: number | null): string | null {
  if (share === null) return null;
  if (share >= 1) return '100%';
  if (share <= 0) return '0%';
  return `${Math.floor(share * 10_000 + 1e-9) / 100}%`; // + 1e-9: 0.29 * 10000 is 2899.99…
}

/** NO → "Norway", from the browser's own data (nothing fetched). */
export function countryName(code: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}
