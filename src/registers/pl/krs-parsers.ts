import { z } from 'zod';
import type { CompanyRecord, Officer, StatusCategory } from '../connector';
import { UpstreamError } from '../upstream-error';
import { adresSchema, flag, formatKrsAddress, krsDate, listOf, optional, text } from './krs-values';
import { PL } from './pl.definition';
import { isValidNip, isValidRegon, unpadRegon } from './pl.identifier';

/** The two KRS registers the open API serves: P (entrepreneurs) and S (associations, foundations…). */
export type KrsRegister = 'P' | 'S';
export const KRS_REGISTERS: readonly KrsRegister[] = ['P', 'S'];

/** The registers' names as the KRS Act (art. 1) words them. */
const REGISTER_NAMES: Record<KrsRegister, string> = {
  P: 'REJESTR PRZEDSIĘBIORCÓW',
  S: 'REJESTR STOWARZYSZEŃ, INNYCH ORGANIZACJI SPOŁECZNYCH I ZAWODOWYCH, FUNDACJI ORAZ SAMODZIELNYCH PUBLICZNYCH ZAKŁADÓW OPIEKI ZDROWOTNEJ',
};

/** What a parsed extract carries before provenance is added. */
export type KrsRecord = Omit<CompanyRecord, 'source'>;

export interface KrsExtract {
  register: KrsRegister;
  record: KrsRecord;
  /** Current members of the representing organ (dzial2.reprezentacja), names masked as the ministry masks them. */
  officers: Officer[];
}

/**
 * The register's own phrases for the two ends of an entry's life, as the full extract words
 * its entries (`wpis[].opis`). KRS has no status field: present in the current extract, with
 * no removal and no statutory suffix in the name, an entity is registered, and that is said
 * with the register's registration phrase (a status must be a string for a change to it to be
 * seen at all).
 */
export const KRS_REGISTERED = 'REJESTRACJA W KRAJOWYM REJESTRZE SĄDOWYM';
export const KRS_REMOVED = 'WYKREŚLENIE Z KRAJOWEGO REJESTRU SĄDOWEGO';

/**
 * Statutory suffixes of a name under winding-up or insolvency (KSH art. 274 § 2 "w likwidacji",
 * Prawo upadłościowe "w upadłości", Prawo restrukturyzacyjne "w restrukturyzacji"): the
 * register enters the changed name, so the suffix is the register's own wording of the status.
 * dzial6 holds the proceedings too, but no recorded extract shows its field names (UNVERIFIED),
 * so it is not read.
 */
const NAME_SUFFIXES: ReadonlyArray<[RegExp, StatusCategory]> = [
  [/(?:^|\s)(W LIKWIDACJI)$/iu, 'in_liquidation'],
  [/(?:^|\s)(W UPADŁOŚCI(?: UKŁADOWEJ| LIKWIDACYJNEJ)?)$/iu, 'insolvency'],
  [/(?:^|\s)(W RESTRUKTURYZACJI)$/iu, 'insolvency'],
];

const rejestr = z
  .string()
  .regex(/^Rej[PS]$/)
  .transform((r) => r.slice(3) as KrsRegister);
const numerKRS = z.string().regex(/^\d{10}$/);

const nazwisko = z.object({ nazwiskoICzlon: text, nazwiskoIICzlon: text });
const imiona = z.object({ imie: text, imieDrugie: text });
const czlonek = z.object({
  nazwisko: optional(nazwisko),
  imiona: optional(imiona),
  /** A legal person in the organ (partnerships): UNVERIFIED, no recorded extract shows one. */
  nazwa: text,
  funkcjaWOrganie: text,
  czyZawieszona: flag,
});
const organ = z.object({ nazwaOrganu: text, sklad: listOf(czlonek) });

const odpisAktualny = z.object({
  odpis: z.object({
    naglowekA: z.object({
      rejestr,
      numerKRS,
      dataRejestracjiWKRS: text,
      // Read by a third-party client for removed entities; no recording shows it (UNVERIFIED).
      dataWykreslenia: text,
    }),
    dane: z.object({
      dzial1: z.object({
        danePodmiotu: z.object({
          nazwa: z.string().trim().min(1),
          formaPrawna: text,
          identyfikatory: optional(z.object({ nip: text, regon: text })),
          daneOWczesniejszejRejestracji: optional(
            z.object({ nazwaPoprzedniegoRejestru: text, numerWPoprzednimRejestrze: text, sadProwadzacyRejestr: text }),
          ),
        }),
        siedzibaIAdres: optional(
          z.object({ siedziba: optional(z.object({ miejscowosc: text })), adres: optional(adresSchema) }),
        ),
      }),
      dzial2: optional(z.object({ reprezentacja: z.unknown().optional() })),
    }),
  }),
});

const problem = z.object({ status: z.number().int(), title: text, type: text });

/**
 * `OdpisAktualny` (current extract) → the record and its board. Throws UpstreamError only when
 * the body is not an extract (no header, KRS number, register or name); every other field may
 * be missing.
 */
export function parseOdpisAktualny(body: unknown): KrsExtract {
  const parsed = odpisAktualny.safeParse(body);
  if (!parsed.success)
    throw UpstreamError.invalidResponse('KRS sent a current extract without its header, KRS number or name');
  const { naglowekA, dane } = parsed.data.odpis;
  const podmiot = dane.dzial1.danePodmiotu;
  const adres = dane.dzial1.siedzibaIAdres?.adres ?? null;
  const earlier = podmiot.daneOWczesniejszejRejestracji;
  const previousRegistration =
    earlier && (earlier.nazwaPoprzedniegoRejestru || earlier.numerWPoprzednimRejestrze)
      ? {
          register: earlier.nazwaPoprzedniegoRejestru,
          number: earlier.numerWPoprzednimRejestrze,
          court: earlier.sadProwadzacyRejestr,
        }
      : null;
  const registeredOn = krsDate(naglowekA.dataRejestracjiWKRS);
  const removedOn = krsDate(naglowekA.dataWykreslenia);
  const record: KrsRecord = {
    name: podmiot.nazwa,
    registrationNumber: naglowekA.numerKRS,
    country: PL,
    ...(naglowekA.dataWykreslenia
      ? { status: KRS_REMOVED, statusCategory: 'struck_off' as const }
      : nameStatus(podmiot.nazwa)),
    legalForm: podmiot.formaPrawna,
    address: formatKrsAddress(adres),
    city: adres?.miejscowosc ?? dane.dzial1.siedzibaIAdres?.siedziba?.miejscowosc ?? null,
    // A company or foundation comes into being with its KRS entry, unless it was registered
    // before KRS existed (2001): then the KRS date is a transfer, not its incorporation.
    incorporationDate: previousRegistration ? null : registeredOn,
    extra: {
      ...registerExtra(naglowekA.rejestr),
      registeredInKrsOn: registeredOn,
      ...(previousRegistration ? { previousRegistration } : {}),
      ...(removedOn ? { removedOn } : {}),
      ...identifiers(podmiot.identyfikatory?.nip ?? null, podmiot.identyfikatory?.regon ?? null),
    },
  };
  const organs = asList(dane.dzial2?.reprezentacja).flatMap((o) => {
    const p = organ.safeParse(o);
    return p.success ? [p.data] : [];
  });
  const officers: Officer[] = [];
  const suspended: string[] = [];
  for (const o of organs) {
    for (const member of o.sklad) {
      const officer = toOfficer(member, o.nazwaOrganu);
      if (!officer) continue;
      officers.push(officer);
      if (member.czyZawieszona) suspended.push(officer.name);
    }
  }
  if (suspended.length) record.extra = { ...record.extra, suspendedOfficers: suspended };
  return { register: naglowekA.rejestr, record, officers };
}

/** The register's 404 body (ASP.NET problem details), or null when the body is something else. */
export function parseKrsProblem(body: unknown): { status: number; title: string | null } | null {
  const parsed = problem.safeParse(body);
  return parsed.success ? { status: parsed.data.status, title: parsed.data.title } : null;
}

/** Status from the statutory suffix of the name, else registered. */
export function nameStatus(name: string): { status: string; statusCategory: StatusCategory } {
  for (const [pattern, statusCategory] of NAME_SUFFIXES) {
    const m = pattern.exec(name.trim());
    if (m) return { status: m[1].toUpperCase(), statusCategory };
  }
  return { status: KRS_REGISTERED, statusCategory: 'active' };
}

export function registerExtra(register: KrsRegister): { krsRegister: KrsRegister; krsRegisterName: string } {
  return { krsRegister: register, krsRegisterName: REGISTER_NAMES[register] };
}

/**
 * NIP and REGON as the register wrote them, REGON's KRS padding ("…00000") removed. A value
 * that fails its check digit is kept, not dropped: it is what the register says, and the
 * warning beside it says it fails, so nobody takes it for a checked number. The valid ones are
 * also the record's other numbers, by which a NIP or REGON query finds it in the dataset.
 */
export function identifiers(nip: string | null, regon: string | null): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const warnings: string[] = [];
  const otherNumbers: string[] = [];
  if (nip) {
    out.nip = digitsOf(nip);
    if (isValidNip(digitsOf(nip))) otherNumbers.push(digitsOf(nip));
    else warnings.push(`The register's NIP ${nip} fails the NIP check digit.`);
  }
  if (regon) {
    const r = unpadRegon(digitsOf(regon));
    out.regon = r;
    if (isValidRegon(r)) otherNumbers.push(r);
    else warnings.push(`The register's REGON ${regon} fails the REGON check digit.`);
  }
  if (warnings.length) out.identifierWarnings = warnings;
  if (otherNumbers.length) out.otherNumbers = otherNumbers;
  return out;
}

/** Spaces and dashes are how a number is written, not part of it ("774-000-14-54"); anything else is kept. */
function digitsOf(value: string): string {
  const compact = value.replace(/[\s-]/g, '');
  return /^\d+$/.test(compact) ? compact : value;
}

/**
 * A member of an organ. The ministry masks natural persons ("D***** K******** M****"): the
 * parts are joined as written (given names, then the surname, its two parts with a hyphen as
 * Polish double surnames are written) and never unmasked. Role: the function in the organ,
 * else the organ's name. The current extract gives no dates.
 */
export function toOfficer(member: z.output<typeof czlonek>, organName: string | null): Officer | null {
  const role = member.funkcjaWOrganie ?? organName;
  if (!role) return null;
  const surname = [member.nazwisko?.nazwiskoICzlon, member.nazwisko?.nazwiskoIICzlon].filter(Boolean).join('-');
  const personName = [member.imiona?.imie, member.imiona?.imieDrugie, surname].filter(Boolean).join(' ');
  if (personName) return { name: personName, role, kind: 'person', appointedOn: null, resignedOn: null };
  if (member.nazwa) return { name: member.nazwa, role, kind: 'company', appointedOn: null, resignedOn: null };
  return null;
}

export function asList(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  return value === null || value === undefined ? [] : [value];
}

/* ---------------------------------------------------------------------------------------------
 * OdpisPelny (full extract): every value is a list of versions, each naming the entry that
 * brought it in (`nrWpisuWprow`) and, once replaced or removed, the entry that struck it
 * (`nrWpisuWykr`); `naglowekP.wpis[]` dates the entries.
 * ------------------------------------------------------------------------------------------- */

const entryRefs = { nrWpisuWprow: text, nrWpisuWykr: text };
function versions<S extends z.ZodRawShape>(shape: S) {
  return listOf(z.object({ ...shape, ...entryRefs }));
}
type Version = { nrWpisuWprow: string | null; nrWpisuWykr: string | null };

const wpis = z.object({ numerWpisu: text, opis: text, dataWpisu: text, dataUprawomocnienia: text });
const czlonekPelny = z.object({
  nazwisko: versions({ nazwisko: optional(nazwisko) }),
  imiona: versions({ imiona: optional(imiona) }),
  nazwa: versions({ nazwa: text }),
  funkcjaWOrganie: versions({ funkcjaWOrganie: text }),
  czyZawieszona: versions({ czyZawieszona: flag }),
});
const organPelny = z.object({ nazwaOrganu: versions({ nazwaOrganu: text }), sklad: listOf(czlonekPelny) });

const odpisPelny = z.object({
  odpis: z.object({
    naglowekP: z.object({ rejestr, numerKRS, wpis: listOf(wpis) }),
    // The recorded extract of a removed entity was trimmed to `dane: {}`: every section is optional.
    dane: optional(
      z.object({
        dzial1: optional(
          z.object({
            danePodmiotu: optional(
              z.object({
                nazwa: versions({ nazwa: text }),
                formaPrawna: versions({ formaPrawna: text }),
                identyfikatory: versions({ identyfikatory: optional(z.object({ nip: text, regon: text })) }),
                daneOWczesniejszejRejestracji: versions({
                  nazwaPoprzedniegoRejestru: text,
                  numerWPoprzednimRejestrze: text,
                }),
              }),
            ),
            siedzibaIAdres: optional(
              z.object({ siedziba: versions({ miejscowosc: text }), adres: versions(adresSchema.shape) }),
            ),
          }),
        ),
        dzial2: optional(z.object({ reprezentacja: z.unknown().optional() })),
      }),
    ),
  }),
});

export interface KrsRemoval {
  /** YYYY-MM-DD of the removal entry, and of the day it became final (`dataUprawomocnienia`). */
  on: string | null;
  finalOn: string | null;
}

export interface KrsFullExtract extends KrsExtract {
  /** The removal from the register, when the latest lifecycle entry is one. */
  removal: KrsRemoval | null;
}

/** The version in force (not struck), or the last one when every version was struck. */
function current<T extends Version>(list: T[]): T | null {
  return list.filter((v) => !v.nrWpisuWykr).at(-1) ?? list.at(-1) ?? null;
}

/**
 * `OdpisPelny` → the record as it stands, removal included, and the current board with the
 * dates of the entries that appointed them (former members go to `extra.formerOfficers`, with
 * the date of the entry that struck them). Throws UpstreamError only without header, KRS number
 * or register. Without a name (a trimmed extract) the KRS number stands in, marked
 * `extra.nameNotGiven`.
 */
export function parseOdpisPelny(body: unknown): KrsFullExtract {
  const parsed = odpisPelny.safeParse(body);
  if (!parsed.success) throw UpstreamError.invalidResponse('KRS sent a full extract without its header or KRS number');
  const { naglowekP, dane } = parsed.data.odpis;
  const dates = new Map(naglowekP.wpis.map((w) => [w.numerWpisu, krsDate(w.dataWpisu)]));
  const removal = findRemoval(naglowekP.wpis);
  const podmiot = dane?.dzial1?.danePodmiotu ?? null;
  const name = podmiot ? current(podmiot.nazwa)?.nazwa : null;
  const adres = current(dane?.dzial1?.siedzibaIAdres?.adres ?? []);
  const ids = podmiot ? current(podmiot.identyfikatory)?.identyfikatory : null;
  const earlier = podmiot ? current(podmiot.daneOWczesniejszejRejestracji) : null;
  const first = naglowekP.wpis.find((w) => w.opis === KRS_REGISTERED);
  const registeredOn = first ? krsDate(first.dataWpisu) : null;
  const record: KrsRecord = {
    name: name ?? naglowekP.numerKRS,
    registrationNumber: naglowekP.numerKRS,
    country: PL,
    ...(removal
      ? { status: KRS_REMOVED, statusCategory: 'struck_off' as const }
      : name
        ? nameStatus(name)
        : { status: null, statusCategory: 'unknown' as const }),
    legalForm: podmiot ? (current(podmiot.formaPrawna)?.formaPrawna ?? null) : null,
    address: formatKrsAddress(adres),
    city: adres?.miejscowosc ?? current(dane?.dzial1?.siedzibaIAdres?.siedziba ?? [])?.miejscowosc ?? null,
    incorporationDate: earlier?.nazwaPoprzedniegoRejestru || earlier?.numerWPoprzednimRejestrze ? null : registeredOn,
    extra: {
      ...registerExtra(naglowekP.rejestr),
      registeredInKrsOn: registeredOn,
      ...(removal ? { removedOn: removal.on, removalFinalOn: removal.finalOn } : {}),
      ...identifiers(ids?.nip ?? null, ids?.regon ?? null),
      ...(name ? {} : { nameNotGiven: true }),
    },
  };
  const { officers, former } = fullExtractOfficers(dane?.dzial2?.reprezentacja, dates);
  if (former.length) record.extra = { ...record.extra, formerOfficers: former };
  return { register: naglowekP.rejestr, record, officers, removal };
}

/** The latest removal entry, unless a registration entry follows it. */
function findRemoval(entries: z.output<typeof wpis>[]): KrsRemoval | null {
  const ordered = [...entries].sort((a, b) => Number(a.numerWpisu) - Number(b.numerWpisu));
  let removal: z.output<typeof wpis> | null = null;
  for (const e of ordered) {
    if (e.opis === KRS_REMOVED) removal = e;
    else if (e.opis === KRS_REGISTERED) removal = null;
  }
  return removal ? { on: krsDate(removal.dataWpisu), finalOn: krsDate(removal.dataUprawomocnienia) } : null;
}

function fullExtractOfficers(
  reprezentacja: unknown,
  dates: Map<string | null, string | null>,
): { officers: Officer[]; former: Officer[] } {
  const officers: Officer[] = [];
  const former: Officer[] = [];
  for (const raw of asList(reprezentacja)) {
    const o = organPelny.safeParse(raw);
    if (!o.success) continue;
    const organName = current(o.data.nazwaOrganu)?.nazwaOrganu ?? null;
    for (const m of o.data.sklad) {
      const identity = current(m.nazwisko) ?? current(m.nazwa);
      const officer = toOfficer(
        {
          nazwisko: current(m.nazwisko)?.nazwisko ?? null,
          imiona: current(m.imiona)?.imiona ?? null,
          nazwa: current(m.nazwa)?.nazwa ?? null,
          funkcjaWOrganie: current(m.funkcjaWOrganie)?.funkcjaWOrganie ?? null,
          czyZawieszona: current(m.czyZawieszona)?.czyZawieszona ?? null,
        },
        organName,
      );
      if (!officer || !identity) continue;
      const appointed = [...m.nazwisko, ...m.nazwa].map((v) => Number(v.nrWpisuWprow)).filter(Number.isFinite);
      officer.appointedOn = appointed.length ? (dates.get(String(Math.min(...appointed))) ?? null) : null;
      if (identity.nrWpisuWykr) {
        officer.resignedOn = dates.get(identity.nrWpisuWykr) ?? null;
        former.push(officer);
      } else officers.push(officer);
    }
  }
  return { officers, former };
}
