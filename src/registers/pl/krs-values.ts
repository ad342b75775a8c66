import { z } from 'zod';

/**
 * An optional text field of a KRS extract: trimmed, empty as null. A number (the register
 * writes some house numbers and entry numbers either way) is read as its digits; any other
 * type is null rather than a failure of the whole extract.
 */
export const text = z
  .unknown()
  .optional()
  .transform((v): string | null => {
    if (typeof v === 'string') return v.trim() || null;
    if (typeof v === 'number' && Number.isFinite(v)) return String(v);
    return null;
  });

export const flag = z
  .unknown()
  .optional()
  .transform((v): boolean | null => (typeof v === 'boolean' ? v : null));

/** An optional part of an extract: absent, null or of another shape, it is null (never a failure). */
export function optional<T extends z.ZodType>(schema: T) {
  return z
    .unknown()
    .optional()
    .transform((v): z.output<T> | null => {
      if (v === null || v === undefined) return null;
      const parsed = schema.safeParse(v);
      return parsed.success ? parsed.data : null;
    });
}

/** The elements of an optional list that have the given shape; others are left out. */
export function listOf<T extends z.ZodType>(schema: T) {
  return z
    .unknown()
    .optional()
    .transform((v): z.output<T>[] => {
      const items = Array.isArray(v) ? v : [];
      const out: z.output<T>[] = [];
      for (const item of items) {
        const parsed = schema.safeParse(item);
        if (parsed.success) out.push(parsed.data);
      }
      return out;
    });
}

/** Years a KRS date can have: the register opened in 2001; earlier registrations are named, not dated. */
const FIRST_YEAR = 1900;
const LAST_YEAR = 2100;

/**
 * `dd.MM.yyyy` (the register's format) → `YYYY-MM-DD`, or null when it is not a real calendar
 * date in a plausible year (31.02.2026, 01.01.0001 and free text are null, never passed on).
 */
export function krsDate(value: string | null | undefined): string | null {
  const m = value ? /^(\d{2})\.(\d{2})\.(\d{4})$/.exec(value.trim()) : null;
  if (!m) return null;
  const [day, month, year] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (year < FIRST_YEAR || year > LAST_YEAR || month < 1 || month > 12 || day < 1) return null;
  if (day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return null;
  return `${m[3]}-${m[2]}-${m[1]}`;
}

export const adresSchema = z.object({
  ulica: text,
  nrDomu: text,
  nrLokalu: text,
  miejscowosc: text,
  kodPocztowy: text,
  poczta: text,
  kraj: text,
});
export type KrsAdres = z.output<typeof adresSchema>;

/**
 * One line as a Polish address reads: street and number (flat after a slash: "1D/5"), the
 * locality before the street when the post office is another town, then postcode and post
 * office; a place without streets is "SZADOWO 1, 82-500 KWIDZYN". The country is added
 * abroad only. The register's spelling and case are kept ("UL. OSTATNIA", "CHEMIKÓW").
 */
export function formatKrsAddress(a: KrsAdres | null): string | null {
  if (!a) return null;
  const number = a.nrDomu ? (a.nrLokalu ? `${a.nrDomu}/${a.nrLokalu}` : a.nrDomu) : null;
  const post = a.poczta ?? a.miejscowosc;
  const parts: string[] = [];
  if (a.ulica) {
    if (a.miejscowosc && post && a.miejscowosc !== post) parts.push(a.miejscowosc);
    parts.push(join(a.ulica, number));
  } else if (a.miejscowosc) {
    parts.push(join(a.miejscowosc, number));
  } else if (number) {
    parts.push(number);
  }
  const postLine = join(a.kodPocztowy, post);
  if (postLine) parts.push(postLine);
  if (a.kraj && a.kraj !== 'POLSKA') parts.push(a.kraj);
  return parts.length ? parts.join(', ') : null;
}

function join(...words: Array<string | null>): string {
  return words.filter(Boolean).join(' ');
}
