import { z } from 'zod';
import { lookupTable } from '../../platform/lookup-table';
import { recognizeAuIdentifier } from '../au/au.identifier';
import { recognizeCaIdentifier } from '../ca/ca.identifier';
import { recognizeDkIdentifier } from '../dk/dk.identifier';
import { isValidSiren, isValidSiret, recognizeFrIdentifier } from '../fr/fr.identifier';
import { normaliseGbCompanyNumber } from '../gb/gb.identifier';
import { compactNumber, IdentifierRecognizer } from '../identifier';
import { recognizeNoIdentifier } from '../no/no.identifier';
import { COUNTRY_CODES } from '../registers';
import { UpstreamError } from '../upstream-error';
import { LEI_REGISTRATION_STATUSES, LeiAuthorityRef, LeiRegistrationStatus } from './lei-record';
import { isValidLei } from './lei.identifier';

/**
 * Which GLEIF registration authorities (RA codes) are the registers this service reads, and how
 * GLEIF's `registeredAs` becomes this service's registration number there.
 *
 * Evidence: only RA000585 is seen in recorded GLEIF answers (Shell plc 04366849, Amazon Digital UK
 * 06528297). Every other code comes from third-party notes that say they checked GLEIF's RA list
 * (shared/registers-next.md §4 and public code): they are UNVERIFIED here, and so is the way each
 * register's numbers are written in `registeredAs`. A wrong code fails closed: no LEI is found for
 * that register's companies, no wrong one is shown.
 */
export const LEI_COUNTRIES = ['GB', 'AU', 'CA', 'FR', 'DK', 'NO', 'FI', 'CZ', 'PL'] as const;
export type LeiCountry = (typeof LEI_COUNTRIES)[number];

export interface LeiAuthority {
  /** GLEIF RA code. */
  code: string;
  country: LeiCountry;
  /** The register, in words close to the RA list’s (the exact wording is not recorded). */
  name: string;
  /** 'recorded' when a recorded GLEIF answer shows it; 'UNVERIFIED' otherwise. */
  evidence: 'recorded' | 'UNVERIFIED';
  /** Which of the country's registration numbers this authority holds (AU: ABNs at the ABR, ACNs at ASIC). */
  holds?: (registrationNumber: string) => boolean;
}

interface CountryLink {
  authorities: LeiAuthority[];
  /**
   * A `registeredAs` as GLEIF writes it (or a number a caller holds) → the registration number as
   * this service keys it in that country (what `/companies/{cc}/{number}` and search results use),
   * or null when it is not one.
   */
  registrationNumber: (value: string) => string | null;
  /** The forms GLEIF may write a registration number in: the filter values, canonical first. */
  registeredAsForms: (registrationNumber: string) => string[];
}

/** The number a recogniser reads in a value, or null when it reads a name or a malformed number. */
function viaRecognizer(recognize: IdentifierRecognizer): (value: string) => string | null {
  return (value) => {
    const match = recognize(value);
    return match.kind === 'number' ? match.registrationNumber : null;
  };
}

/** FR: a SIREN, a SIRET or a VAT number, also inside RCS wording ("552 120 222 R.C.S. Paris"). */
function frenchSiren(value: string): string | null {
  const recognised = viaRecognizer(recognizeFrIdentifier)(value);
  if (recognised) return recognised;
  const digits = value.replace(/\D/g, '');
  if (digits.length === 9 && isValidSiren(digits)) return digits;
  if (digits.length === 14 && isValidSiret(digits)) return digits.slice(0, 9);
  return null;
}

const FI_WEIGHTS = [7, 9, 10, 5, 8, 4, 2];

/**
 * FI Y-tunnus (business ID) "NNNNNNN-C": weights 7,9,10,5,8,4,2; r = sum mod 11; r = 0 → 0,
 * r = 1 → never issued, else 11 − r (registers-next.md §1). Older 6-digit IDs are zero-padded.
 * Written with its hyphen, as YTJ's `businessId.value` does ("0112038-9").
 */
export function finnishBusinessId(value: string): string | null {
  const compact = value
    .trim()
    .toUpperCase()
    .replace(/[\s\u00a0]/g, '');
  // A 6-digit body only with its hyphen: "1234567" is a 7-digit body, not 6 digits and a check.
  const m = /^(?:FI)?(\d{7})-?(\d)$/.exec(compact) ?? /^(\d{6})-(\d)$/.exec(compact);
  if (!m) return null;
  const body = m[1].padStart(7, '0');
  const r = FI_WEIGHTS.reduce((sum, w, i) => sum + w * Number(body[i]), 0) % 11;
  if (r === 1) return null;
  const check = r === 0 ? 0 : 11 - r;
  return check === Number(m[2]) ? `${body}-${check}` : null;
}

/**
 * CZ IČO: 8 digits (leading zeros significant); weights 8…2 on the first 7, r = sum mod 11,
 * check = (11 − r) mod 10 (registers-next.md §2). The DIČ form "CZ" + IČO is read too.
 */
export function czechIco(value: string): string | null {
  const digits = compactNumber(value.trim()).toUpperCase().replace(/^CZ/, '');
  if (!/^\d{1,8}$/.test(digits)) return null;
  const ico = digits.padStart(8, '0');
  const sum = [8, 7, 6, 5, 4, 3, 2].reduce((acc, w, i) => acc + w * Number(ico[i]), 0);
  return (11 - (sum % 11)) % 10 === Number(ico[7]) && !/^0+$/.test(ico) ? ico : null;
}

/** PL KRS number: up to 10 digits, zero-padded to 10 (no check digit), also written "KRS 0000028860". */
export function polishKrs(value: string): string | null {
  const digits = compactNumber(value.trim())
    .toUpperCase()
    .replace(/^KRS:?/, '');
  if (!/^\d{1,10}$/.test(digits) || /^0+$/.test(digits)) return null;
  return digits.padStart(10, '0');
}

const COUNTRY_LINKS: Record<LeiCountry, CountryLink> = {
  GB: {
    authorities: [
      { code: 'RA000585', country: 'GB', name: 'Companies House (England and Wales)', evidence: 'recorded' },
      { code: 'RA000586', country: 'GB', name: 'Companies House (Northern Ireland)', evidence: 'UNVERIFIED' },
      { code: 'RA000587', country: 'GB', name: 'Companies House (Scotland)', evidence: 'UNVERIFIED' },
    ],
    registrationNumber: normaliseGbCompanyNumber,
    // Recorded: GLEIF writes Companies House numbers zero-padded to 8 ("04366849").
    registeredAsForms: (n) => [n],
  },
  AU: {
    authorities: [
      {
        code: 'RA000013',
        country: 'AU',
        name: 'Australian Business Register (ABN)',
        evidence: 'UNVERIFIED',
        holds: (n) => n.length === 11,
      },
      {
        code: 'RA000014',
        country: 'AU',
        name: 'ASIC Register of Companies (ACN)',
        evidence: 'UNVERIFIED',
        holds: (n) => n.length === 9,
      },
    ],
    registrationNumber: viaRecognizer(recognizeAuIdentifier),
    registeredAsForms: (n) => [n],
  },
  CA: {
    authorities: [{ code: 'RA000072', country: 'CA', name: 'Corporations Canada (federal)', evidence: 'UNVERIFIED' }],
    registrationNumber: viaRecognizer(recognizeCaIdentifier),
    // Corporation numbers of up to 7 digits are also written zero-filled with a dash ("000100-7").
    registeredAsForms: (n) =>
      /^\d{1,7}$/.test(n) ? [n, `${n.padStart(7, '0').slice(0, 6)}-${n.padStart(7, '0').slice(6)}`] : [n],
  },
  FR: {
    authorities: [
      { code: 'RA000189', country: 'FR', name: 'Sirene (INSEE)', evidence: 'UNVERIFIED' },
      {
        code: 'RA000192',
        country: 'FR',
        name: 'Registre du commerce et des sociétés (Infogreffe)',
        evidence: 'UNVERIFIED',
      },
    ],
    registrationNumber: frenchSiren,
    registeredAsForms: (n) => [n],
  },
  DK: {
    authorities: [
      { code: 'RA000170', country: 'DK', name: 'Det Centrale Virksomhedsregister (CVR)', evidence: 'UNVERIFIED' },
    ],
    registrationNumber: viaRecognizer(recognizeDkIdentifier),
    registeredAsForms: (n) => [n],
  },
  NO: {
    authorities: [
      { code: 'RA000472', country: 'NO', name: 'Foretaksregisteret (Brønnøysund)', evidence: 'UNVERIFIED' },
      { code: 'RA000473', country: 'NO', name: 'Enhetsregisteret (Brønnøysund)', evidence: 'UNVERIFIED' },
    ],
    registrationNumber: viaRecognizer(recognizeNoIdentifier),
    registeredAsForms: (n) => [n],
  },
  FI: {
    authorities: [
      { code: 'RA000188', country: 'FI', name: 'Business Information System (PRH/YTJ)', evidence: 'UNVERIFIED' },
    ],
    registrationNumber: finnishBusinessId,
    registeredAsForms: (n) => [n, n.replace('-', '')],
  },
  CZ: {
    authorities: [
      { code: 'RA000163', country: 'CZ', name: 'Obchodní rejstřík (Ministry of Justice)', evidence: 'UNVERIFIED' },
      { code: 'RA000168', country: 'CZ', name: 'ARES (Ministry of Finance)', evidence: 'UNVERIFIED' },
    ],
    registrationNumber: czechIco,
    registeredAsForms: (n) => [n],
  },
  PL: {
    authorities: [{ code: 'RA000484', country: 'PL', name: 'Krajowy Rejestr Sądowy (KRS)', evidence: 'UNVERIFIED' }],
    registrationNumber: polishKrs,
    // KRS feeds write the number without its leading zeros.
    registeredAsForms: (n) => [n, n.replace(/^0+/, '')],
  },
};

/** Every authority above, keyed by RA code (a table without a prototype: codes come from GLEIF). */
export const LEI_AUTHORITIES: Readonly<Record<string, LeiAuthority>> = lookupTable(
  Object.fromEntries(Object.values(COUNTRY_LINKS).flatMap((link) => link.authorities.map((a) => [a.code, a] as const))),
);

function isLeiCountry(value: string): value is LeiCountry {
  return (LEI_COUNTRIES as readonly string[]).includes(value);
}

/** The national record an LEI record points to, in a register this service knows. */
export interface NationalRecordRef {
  country: LeiCountry;
  registrationNumber: string;
  authority: LeiAuthority;
}

/** GLEIF's `registeredAt` + `registeredAs` → the register and number here, or null. */
export function nationalRecordFor(
  registeredAt: LeiAuthorityRef | string | null | undefined,
  registeredAs: string | null | undefined,
): NationalRecordRef | null {
  const code = typeof registeredAt === 'string' ? registeredAt : registeredAt?.id;
  if (!code || !registeredAs) return null;
  const authority = LEI_AUTHORITIES[code];
  if (!authority) return null;
  const registrationNumber = COUNTRY_LINKS[authority.country].registrationNumber(registeredAs);
  if (!registrationNumber || (authority.holds && !authority.holds(registrationNumber))) return null;
  return { country: authority.country, registrationNumber, authority };
}

/**
 * The path of the national record here (`/api/public/v1/companies/{cc}/{number}`), or null when
 * the authority is not a register this service reads, or the number is not one of its numbers.
 * `covered` is the countries with a connector today (FI, CZ and PL get paths when they join
 * COUNTRY_CODES).
 */
export function nationalRecordPath(
  registeredAt: LeiAuthorityRef | string | null | undefined,
  registeredAs: string | null | undefined,
  covered: readonly string[] = COUNTRY_CODES,
): string | null {
  const ref = nationalRecordFor(registeredAt, registeredAs);
  if (!ref || !covered.includes(ref.country)) return null;
  return `/api/public/v1/companies/${ref.country}/${encodeURIComponent(ref.registrationNumber)}`;
}

// ---------------------------------------------------------------------------------------------
// One batched request: national numbers of one register → their LEIs.

/** Most numbers one request maps (SEARCH_MAX_RESULTS is at most 100). */
export const LEI_BATCH_MAX_NUMBERS = 100;
/**
 * Page size of the batched request. GLEIF's default is 15 (recorded); 200 is what third-party
 * clients use against /lei-records (the maximum is UNVERIFIED). 200 leaves room for a second LEI
 * per number (a lapsed or duplicate registration) at the batch's 100 numbers.
 */
export const LEI_BATCH_PAGE_SIZE = 200;

export interface LeiFilter {
  country: LeiCountry;
  /** Query parameters of the one `GET /lei-records` request (axios encodes the brackets). */
  params: Record<string, string>;
  /** Registration number as this service keys it → the numbers the caller gave for it. */
  wanted: ReadonlyMap<string, readonly string[]>;
  /** The RA codes asked for. */
  authorities: readonly string[];
}

/**
 * The filter on the registration authority. Third-party clients used against the live API write
 * `filter[entity.registeredAt]=RA000585`; `filter[entity.registeredAt.id]` is the other spelling
 * one sees. Neither is in a recorded request (UNVERIFIED): parseLeiMapping checks each record's
 * `registeredAt.id` itself, so a filter GLEIF ignored would cost page room, never a wrong LEI.
 */
export const LEI_AUTHORITY_FILTER = 'filter[entity.registeredAt]';
export const LEI_NUMBER_FILTER = 'filter[entity.registeredAs]';

/**
 * The one GLEIF request that maps up to LEI_BATCH_MAX_NUMBERS registration numbers of one
 * country to their LEIs: the authority filter (the country's RA codes) and `registeredAs` (every
 * number in the forms GLEIF may write it), both comma-separated. Comma-separated values are
 * recorded for `filter[lei]` only; for these two fields they are UNVERIFIED (third-party clients
 * use them). Numbers that are not numbers of the country are left out; null when none is left
 * (or the country has no link): make no request.
 *
 * AU: pass a record's ACN (`extra.acn`) as well as its ABN; each maps under its own authority
 * (ASIC holds ACNs, the ABR ABNs), keyed by the number passed.
 */
export function leiFilterFor(country: string, numbers: readonly string[]): LeiFilter | null {
  if (!isLeiCountry(country)) return null;
  if (numbers.length > LEI_BATCH_MAX_NUMBERS)
    throw new RangeError(`one GLEIF request maps at most ${LEI_BATCH_MAX_NUMBERS} numbers, not ${numbers.length}`);
  const link = COUNTRY_LINKS[country];
  const wanted = new Map<string, string[]>();
  const forms = new Set<string>();
  const codes = new Set<string>();
  for (const given of numbers) {
    const number = link.registrationNumber(given);
    if (!number) continue;
    const holders = link.authorities.filter((a) => !a.holds || a.holds(number));
    if (holders.length === 0) continue;
    const givenFor = wanted.get(number) ?? [];
    if (!givenFor.includes(given)) givenFor.push(given);
    wanted.set(number, givenFor);
    for (const a of holders) codes.add(a.code);
    for (const form of link.registeredAsForms(number)) forms.add(form);
  }
  if (wanted.size === 0) return null;
  // Normalised numbers hold digits, letters and a hyphen only: no comma can split a value.
  return {
    country,
    params: {
      [LEI_AUTHORITY_FILTER]: [...codes].join(','),
      [LEI_NUMBER_FILTER]: [...forms].join(','),
      'page[size]': String(LEI_BATCH_PAGE_SIZE),
    },
    wanted,
    authorities: [...codes],
  };
}

/** Registration statuses of an LEI a company may be shown with, best first; the rest are never shown. */
const SHOWN: Partial<Record<LeiRegistrationStatus, number>> = {
  ISSUED: 3,
  PENDING_TRANSFER: 3,
  PENDING_ARCHIVAL: 3,
  LAPSED: 2, // not renewed: still the entity's LEI
  RETIRED: 1,
  MERGED: 1,
  // DUPLICATE and ANNULLED LEIs must not be used; PENDING_VALIDATION, CANCELLED and TRANSFERRED were never (or are no longer) issued.
};

/** Only what the mapping needs of a record: a record without it is skipped, not fatal. */
const mappingItem = z.object({
  attributes: z.object({
    lei: z.string().refine(isValidLei),
    entity: z.object({ registeredAt: z.object({ id: z.string() }), registeredAs: z.string() }),
    registration: z.object({ status: z.enum(LEI_REGISTRATION_STATUSES) }),
  }),
});

const mappingPage = z.object({
  meta: z.object({ pagination: z.object({ total: z.number().int().min(0) }) }),
  data: z.array(z.unknown()),
});

/**
 * The answer to the request of `leiFilterFor` → the caller's numbers → LEI. A number is mapped
 * only when a record of one of the asked authorities carries it and one LEI stands out: the best
 * registration status (ISSUED over LAPSED over RETIRED/MERGED), never a DUPLICATE or ANNULLED one,
 * and no two LEIs tied at the best. An answer cut by paging maps nothing: the LEI that would
 * outrank could be on the next page. A body that is not a list of records throws UpstreamError.
 */
export function parseLeiMapping(body: unknown, filter: LeiFilter): Map<string, string> {
  return parseLeiMappingPage(body, filter).leis;
}

/**
 * parseLeiMapping, saying whether the answer was whole (`complete`): then a number it does not
 * map has no LEI to show (none, or no single best one), and may be remembered as such; an
 * answer cut by paging says nothing of the numbers it does not map.
 */
export function parseLeiMappingPage(
  body: unknown,
  filter: LeiFilter,
): { leis: Map<string, string>; complete: boolean } {
  const page = mappingPage.safeParse(body);
  if (!page.success) throw UpstreamError.invalidResponse('GLEIF sent a body that is not a list of LEI records');
  const mapped = new Map<string, string>();
  if (page.data.meta.pagination.total > page.data.data.length) return { leis: mapped, complete: false };

  const link = COUNTRY_LINKS[filter.country];
  const best = new Map<string, { rank: number; leis: Set<string> }>();
  for (const item of page.data.data) {
    const parsed = mappingItem.safeParse(item);
    if (!parsed.success) continue;
    const { lei, entity, registration } = parsed.data.attributes;
    const rank = SHOWN[registration.status];
    if (!rank || !filter.authorities.includes(entity.registeredAt.id)) continue;
    const authority = LEI_AUTHORITIES[entity.registeredAt.id];
    const number = link.registrationNumber(entity.registeredAs);
    if (!authority || !number || (authority.holds && !authority.holds(number)) || !filter.wanted.has(number)) continue;
    const current = best.get(number);
    if (!current || rank > current.rank) best.set(number, { rank, leis: new Set([lei]) });
    else if (rank === current.rank) current.leis.add(lei);
  }
  for (const [number, { leis }] of best) {
    if (leis.size !== 1) continue;
    const [lei] = leis;
    for (const given of filter.wanted.get(number) ?? []) mapped.set(given, lei);
  }
  return { leis: mapped, complete: true };
}
