import { z } from 'zod';
import type { CompanyRecord, Officer, StatusCategory } from '../connector';
import { UpstreamError } from '../upstream-error';

/** What a parsed Enhet carries before provenance is added. */
export type BrregRecord = Omit<CompanyRecord, 'source'>;

const text = z.string().nullish();
const flag = z.boolean().nullish();

const adresse = z.object({
  adresse: z.array(z.string().nullish()).nullish(),
  postnummer: text,
  poststed: text,
  land: text,
  landkode: text,
});

/** One unit, as `/enheter/{orgnr}` and the items of `/enheter?navn=` give it; deleted units carry only the first fields. */
const enhet = z.object({
  organisasjonsnummer: z.string().regex(/^\d{9}$/),
  navn: z.string().min(1),
  organisasjonsform: z.object({ kode: text, beskrivelse: text }).nullish(),
  slettedato: text,
  konkurs: flag,
  konkursdato: text,
  underAvvikling: flag,
  underAvviklingDato: text,
  underTvangsavviklingEllerTvangsopplosning: flag,
  forretningsadresse: adresse.nullish(),
  postadresse: adresse.nullish(),
  stiftelsesdato: text,
  registreringsdatoEnhetsregisteret: text,
});
type Enhet = z.infer<typeof enhet>;

const searchPage = z.object({
  _embedded: z.object({ enheter: z.array(z.unknown()) }).nullish(),
  page: z.object({ totalElements: z.number() }),
});

/** The answer to HTTP 410 for a unit removed for legal reasons: number and date, no name. */
const fjernet = z.object({ organisasjonsnummer: z.string().regex(/^\d{9}$/), navn: text, slettedato: text });

const navn = z.object({ fornavn: text, mellomnavn: text, etternavn: text });
const rolle = z.object({
  type: z.object({ kode: text, beskrivelse: text }),
  person: z.object({ navn }).nullish(),
  enhet: z.object({ organisasjonsnummer: text, navn: z.array(z.string().nullish()).nullish() }).nullish(),
  fratraadt: flag,
  avregistrert: flag,
});
const roller = z.object({
  rollegrupper: z.array(z.object({ roller: z.array(rolle) })),
});

/**
 * Status in the register's own words, evaluated in the reference's order: deleted, bankrupt,
 * compulsory winding-up or dissolution, voluntary winding-up, else registered.
 */
export function brregStatus(
  unit: Pick<Enhet, 'slettedato' | 'konkurs' | 'underAvvikling' | 'underTvangsavviklingEllerTvangsopplosning'>,
): {
  status: string | null;
  statusCategory: StatusCategory;
} {
  if (unit.slettedato) return { status: 'Slettet', statusCategory: 'dissolved' };
  if (unit.konkurs) return { status: 'Konkurs', statusCategory: 'insolvency' };
  if (unit.underTvangsavviklingEllerTvangsopplosning) {
    return { status: 'Under tvangsavvikling eller tvangsoppløsning', statusCategory: 'in_liquidation' };
  }
  if (unit.underAvvikling) return { status: 'Under avvikling', statusCategory: 'in_liquidation' };
  // Without the flags (an older or reduced body) the register has not said the unit is active.
  if (unit.konkurs === false) return { status: 'Registrert', statusCategory: 'active' };
  return { status: null, statusCategory: 'unknown' };
}

export function parseEnhet(body: unknown): BrregRecord {
  const parsed = enhet.safeParse(body);
  if (!parsed.success)
    throw UpstreamError.invalidResponse('Enhetsregisteret sent a unit without organisasjonsnummer or navn');
  return toRecord(parsed.data);
}

export function parseEnhetSearch(body: unknown): BrregRecord[] {
  const parsed = searchPage.safeParse(body);
  if (!parsed.success)
    throw UpstreamError.invalidResponse('Enhetsregisteret sent a search answer without page information');
  return (parsed.data._embedded?.enheter ?? []).map(parseEnhet);
}

/**
 * A unit answered with HTTP 410: removed from the open data for legal reasons. It existed and
 * is gone, so it is a dissolved record, not "not found". The register withholds the name; the
 * organisation number stands in for it (marked in `extra.nameWithheld`).
 */
export function parseFjernetEnhet(body: unknown, requested: string): BrregRecord {
  const parsed = fjernet.safeParse(body);
  const orgnr = parsed.success ? parsed.data.organisasjonsnummer : requested;
  const name = parsed.success && parsed.data.navn ? parsed.data.navn : null;
  return {
    name: name ?? orgnr,
    registrationNumber: orgnr,
    country: 'NO',
    status: 'Fjernet',
    statusCategory: 'dissolved',
    legalForm: null,
    address: null,
    city: null,
    incorporationDate: null,
    extra: {
      slettedato: parsed.success ? isoDate(parsed.data.slettedato) : null,
      removedForLegalReasons: true,
      ...(name ? {} : { nameWithheld: true }),
    },
  };
}

/**
 * Officers from `/enheter/{orgnr}/roller`. The register gives no appointment dates and only a
 * `fratraadt` (resigned) / `avregistrert` flag without a date: such roles are not current, so
 * they are left out of `current` (where resignedOn null means "in office") and returned apart.
 */
export function parseRoller(body: unknown): { current: Officer[]; resigned: Officer[] } {
  const parsed = roller.safeParse(body);
  if (!parsed.success) throw UpstreamError.invalidResponse('Enhetsregisteret sent roles without rollegrupper');
  const current: Officer[] = [];
  const resigned: Officer[] = [];
  for (const group of parsed.data.rollegrupper) {
    for (const r of group.roller) {
      const officer = toOfficer(r);
      if (!officer) continue;
      (r.fratraadt || r.avregistrert ? resigned : current).push(officer);
    }
  }
  return { current, resigned };
}

function toOfficer(r: z.infer<typeof rolle>): Officer | null {
  const role = r.type.beskrivelse?.trim() || r.type.kode?.trim();
  if (!role) return null;
  if (r.person) {
    const name = [r.person.navn.fornavn, r.person.navn.mellomnavn, r.person.navn.etternavn]
      .map((p) => p?.trim())
      .filter(Boolean)
      .join(' ');
    return name ? { name, role, kind: 'person', appointedOn: null, resignedOn: null } : null;
  }
  if (r.enhet) {
    const name = (r.enhet.navn ?? [])
      .map((p) => p?.trim())
      .filter(Boolean)
      .join(' ');
    return name ? { name, role, kind: 'company', appointedOn: null, resignedOn: null } : null;
  }
  return null;
}

function toRecord(unit: Enhet): BrregRecord {
  const address = unit.forretningsadresse ?? unit.postadresse ?? null;
  return {
    name: unit.navn.trim(),
    registrationNumber: unit.organisasjonsnummer,
    country: 'NO',
    ...brregStatus(unit),
    legalForm: unit.organisasjonsform?.beskrivelse?.trim() || null,
    address: address ? formatAdresse(address) : null,
    city: address?.poststed?.trim() || null,
    incorporationDate: isoDate(unit.stiftelsesdato),
    extra: {
      organisasjonsform: unit.organisasjonsform?.kode ?? null,
      registreringsdatoEnhetsregisteret: isoDate(unit.registreringsdatoEnhetsregisteret),
      ...(unit.slettedato ? { slettedato: isoDate(unit.slettedato) } : {}),
      ...(unit.konkurs ? { konkursdato: isoDate(unit.konkursdato) } : {}),
      ...(unit.underAvvikling ? { underAvviklingDato: isoDate(unit.underAvviklingDato) } : {}),
    },
  };
}

/** "Tyvholmen 1, 0101 OSLO" (+ ", Sverige" abroad): street lines, then postcode and place. */
export function formatAdresse(a: z.infer<typeof adresse>): string | null {
  const lines = (a.adresse ?? []).map((l) => l?.trim()).filter((l): l is string => Boolean(l));
  const place = [a.postnummer?.trim(), a.poststed?.trim()].filter(Boolean).join(' ');
  if (place) lines.push(place);
  if (a.landkode && a.landkode !== 'NO' && a.land?.trim()) lines.push(a.land.trim());
  return lines.length ? lines.join(', ') : null;
}

function isoDate(value: string | null | undefined): string | null {
  return value && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : null;
}
