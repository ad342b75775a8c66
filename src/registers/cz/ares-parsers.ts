import { z } from 'zod';
import type { CompanyRecord, StatusCategory } from '../connector';
import { UpstreamError } from '../upstream-error';
import { KOD_CHYBY, PRAVNI_FORMA, STAV_ZDROJE } from './ares-code-lists';
import { aresDate, clean } from './ares-values';

export { aresDate, clean } from './ares-values';
export { parseVrOfficers } from './ares-vr-parsers';

/** What a parsed ARES subject carries before provenance is added. */
export type AresRecord = Omit<CompanyRecord, 'source'>;

// Optional fields: a missing one or one of another type is null, never a failure of the record.
const optText = z.string().nullish().catch(null);
const optInt = z.number().int().nullish().catch(null);

/** `Adresa` of the OpenAPI document: the seat (`sidlo`) of a subject, the address of a person in VR. */
const adresa = z.object({
  kodStatu: optText,
  nazevStatu: optText,
  nazevObce: optText,
  nazevMestskehoObvodu: optText,
  nazevCastiObce: optText,
  nazevUlice: optText,
  cisloDomovni: optInt,
  cisloOrientacni: optInt,
  cisloOrientacniPismeno: optText,
  doplnekAdresy: optText,
  psc: optInt,
  textovaAdresa: optText,
  typCisloDomovni: z.union([z.string(), z.number()]).nullish().catch(null),
  standardizaceAdresy: z.boolean().nullish().catch(null),
});
export type AresAdresa = z.infer<typeof adresa>;

/** `EkonomickySubjekt`: `GET /ekonomicke-subjekty/{ico}` and the items of `POST /ekonomicke-subjekty/vyhledat`. */
const subjekt = z.object({
  ico: z.string().regex(/^\d{8}$/),
  obchodniJmeno: z.string().refine((s) => s.trim() !== ''),
  sidlo: adresa.nullish().catch(null),
  pravniForma: optText,
  datumVzniku: optText,
  datumZaniku: optText,
  datumAktualizace: optText,
  dic: optText,
  primarniZdroj: optText,
  seznamRegistraci: z.record(z.string(), z.unknown()).nullish().catch(null),
});
type Subjekt = z.infer<typeof subjekt>;

const seznam = z.object({
  pocetCelkem: z.number().int().nonnegative(),
  ekonomickeSubjekty: z.array(z.unknown()).nullish(),
});

const chyba = z.object({ kod: z.string().min(1), subKod: optText, popis: optText });

export function parseSubjekt(body: unknown): AresRecord {
  const parsed = subjekt.safeParse(body);
  if (!parsed.success) throw UpstreamError.invalidResponse('ARES sent a subject without an 8-digit ico or a name');
  return toRecord(parsed.data);
}

/**
 * A search page. Subjects without an IČO (`icoId` "ARES_…", an internal id) are left out:
 * nothing can look them up by number or watch them.
 */
export function parseSubjektSearch(body: unknown): { total: number; records: AresRecord[] } {
  const parsed = seznam.safeParse(body);
  if (!parsed.success) throw UpstreamError.invalidResponse('ARES sent a search answer without pocetCelkem');
  const records = (parsed.data.ekonomickeSubjekty ?? [])
    .filter((item) => !isWithoutIco(item))
    .map((item) => parseSubjekt(item));
  return { total: parsed.data.pocetCelkem, records };
}

function isWithoutIco(item: unknown): boolean {
  if (typeof item !== 'object' || item === null) return false;
  const { ico, icoId } = item as { ico?: unknown; icoId?: unknown };
  return (ico === undefined || ico === null) && typeof icoId === 'string' && icoId.startsWith('ARES_');
}

/**
 * A subject's state in one source (`seznamRegistraci.stavZdroje<Source>`, e.g. "Vr"): the raw
 * code, read by the connector to decide whether a VR record exists to be asked for; null when
 * not given.
 */
export function stavZdroje(body: unknown, source: string): string | null {
  const parsed = z.object({ seznamRegistraci: z.record(z.string(), z.unknown()) }).safeParse(body);
  const state = parsed.success ? parsed.data.seznamRegistraci[`stavZdroje${source}`] : undefined;
  return typeof state === 'string' ? state : null;
}

export interface AresError {
  kod: string;
  subKod: string | null;
  /** One plain sentence: the code in English and ARES's own explanation when it is meant for people. */
  message: string;
}

/**
 * An error body `{kod, subKod, popis}` (400 CHYBA_VSTUPU, 404 NENALEZENO, 500 OBECNA_CHYBA…),
 * or null when the body is not one. `popis` joins several texts with "|"; only a sentence meant
 * for people is quoted (server messages leak Java exceptions, which are not).
 */
export function parseAresError(body: unknown): AresError | null {
  const parsed = chyba.safeParse(body);
  if (!parsed.success) return null;
  const { kod, subKod, popis } = parsed.data;
  const code = subKod?.trim() ? `${kod} (${subKod.trim()})` : kod;
  const sentence = (popis ?? '')
    .split('|')
    .map(clean)
    .find((part): part is string => !!part && part.endsWith('.') && part.length <= 300 && !TECHNICAL.test(part));
  return {
    kod,
    subKod: subKod?.trim() || null,
    message: `ARES answered ${code}, ${KOD_CHYBY[kod] ?? 'an error'}${sentence ? `: "${sentence}"` : '.'}`,
  };
}

const TECHNICAL = /exception|\[Source|\bcom\.|\bjava\.|\{|\}/i;

/**
 * Status in the register's terms: a date of dissolution (`datumZaniku`) is "Zaniklý" whatever
 * the sources say; otherwise the state in the primary source (`primarniZdroj`), or "Aktivní"
 * when no primary source is named and some source holds the subject as active. An active
 * subject held active in the insolvency register (ISIR) or the central register of bankrupts
 * (CEÚ) is in insolvency.
 */
export function aresStatus(s: Pick<Subjekt, 'datumZaniku' | 'primarniZdroj' | 'seznamRegistraci'>): {
  status: string | null;
  statusCategory: StatusCategory;
} {
  if (clean(s.datumZaniku)) return { status: 'Zaniklý', statusCategory: 'dissolved' };
  const sources = s.seznamRegistraci ?? {};
  const primary = clean(s.primarniZdroj);
  const primaryState = primary ? sources[`stavZdroje${primary[0].toUpperCase()}${primary.slice(1)}`] : undefined;
  const state =
    typeof primaryState === 'string'
      ? STAV_ZDROJE[primaryState]
      : Object.values(sources).includes('AKTIVNI')
        ? STAV_ZDROJE.AKTIVNI
        : undefined;
  if (!state) return { status: null, statusCategory: 'unknown' };
  if (state.statusCategory === 'active' && sources.stavZdrojeIr === 'AKTIVNI')
    return { status: 'Aktivní, v insolvenčním rejstříku', statusCategory: 'insolvency' };
  if (state.statusCategory === 'active' && sources.stavZdrojeCeu === 'AKTIVNI')
    return { status: 'Aktivní, v centrální evidenci úpadců', statusCategory: 'insolvency' };
  return { ...state };
}

function toRecord(s: Subjekt): AresRecord {
  const code = clean(s.pravniForma);
  return {
    name: clean(s.obchodniJmeno)!,
    registrationNumber: s.ico,
    country: 'CZ',
    ...aresStatus(s),
    legalForm: code ? (PRAVNI_FORMA[code] ?? null) : null,
    address: s.sidlo ? formatAdresa(s.sidlo) : null,
    city: clean(s.sidlo?.nazevObce),
    incorporationDate: aresDate(s.datumVzniku),
    extra: compact({
      pravniForma: code,
      primarniZdroj: clean(s.primarniZdroj),
      dic: clean(s.dic),
      datumZaniku: aresDate(s.datumZaniku),
      datumAktualizace: aresDate(s.datumAktualizace),
    }),
  };
}

/**
 * One line the way ARES writes Czech addresses in `textovaAdresa`, built from the structured
 * parts: "Budějovická 778/3a, Michle, 14000 Praha 4" (street, house/orientation number, part
 * of the municipality where it is not the municipality, postcode, Prague district or
 * municipality); "Daminěves 35, 27704 Cítov" without a street; "č.p. 174, 26251 Dublovice"
 * when the part is the municipality itself. Addresses ARES did not standardise (foreign ones,
 * old free text) and record numbers (č.ev.) are given as ARES wrote them.
 */
export function formatAdresa(a: AresAdresa): string | null {
  const text = clean(a.textovaAdresa);
  const built = buildCzAddress(a);
  if (a.standardizaceAdresy === true && built) return built;
  return text ?? built;
}

function buildCzAddress(a: AresAdresa): string | null {
  const obec = clean(a.nazevObce);
  const cast = clean(a.nazevCastiObce);
  const ulice = clean(a.nazevUlice);
  const typ = a.typCisloDomovni === null || a.typCisloDomovni === undefined ? '1' : String(a.typCisloDomovni);
  const foreign = a.kodStatu !== null && a.kodStatu !== undefined && a.kodStatu !== 'CZ';
  if (!obec || a.cisloDomovni == null || a.psc == null || a.psc < 10000 || a.psc > 99999) return null;
  if (foreign || typ !== '1' || clean(a.doplnekAdresy)) return null;
  const orientacni = a.cisloOrientacni != null ? `/${a.cisloOrientacni}${clean(a.cisloOrientacniPismeno) ?? ''}` : '';
  const cislo = `${a.cisloDomovni}${orientacni}`;
  const otherPart = cast && cast !== obec ? cast : null;
  const parts = ulice ? [`${ulice} ${cislo}`, otherPart] : [otherPart ? `${otherPart} ${cislo}` : `č.p. ${cislo}`];
  parts.push(`${a.psc} ${clean(a.nazevMestskehoObvodu) ?? obec}`);
  return parts.filter(Boolean).join(', ');
}

function compact(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== null && v !== undefined));
}
