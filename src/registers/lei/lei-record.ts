import type { RecordSource } from '../connector';

/**
 * Provenance of a GLEIF answer: `{ register: 'GLEIF Global LEI Index', url: <the record's page at
 * search.gleif.org>, official: true, kind: 'lei_index', retrievedAt }`.
 *
 * - `kind: 'lei_index'` is a kind of its own: the record comes neither from a national register
 *   (`native_official*`) nor from a mirror or dataset of one.
 * - `official: true`: GLEIF's index is the official source of LEI data (ISO 17442, under the
 *   Regulatory Oversight Committee), and the record is read live from GLEIF's own API. It is true
 *   of the LEI record only: GLEIF is not the official source of national registration data. The
 *   legal name, addresses, legal form and the national link (`registeredAt` + `registeredAs`)
 *   are what the entity reported to its LEI issuer (the managing LOU), corroborated to the degree
 *   `corroborationLevel` says; the national record itself is read from the national register
 *   (see lei-authorities.ts `nationalRecordPath`), with that register's own provenance. Nothing of
 *   a LeiRecord may be shown as a national register's official data.
 */
export type LeiSourceKind = 'lei_index';

export interface LeiSource extends Omit<RecordSource, 'kind'> {
  kind: LeiSourceKind;
}

/** LEI-CDF 3.1 `EntityStatus` (only ACTIVE seen in recorded answers). */
export const LEI_ENTITY_STATUSES = ['ACTIVE', 'INACTIVE', 'NULL'] as const;
export type LeiEntityStatus = (typeof LEI_ENTITY_STATUSES)[number];

/**
 * LEI-CDF 3.1 `RegistrationStatus` (ISSUED and LAPSED seen in recorded answers; the others per the
 * standard, UNVERIFIED in the API). LAPSED is an LEI not renewed in time, not a dissolved company.
 */
export const LEI_REGISTRATION_STATUSES = [
  'PENDING_VALIDATION',
  'ISSUED',
  'DUPLICATE',
  'LAPSED',
  'MERGED',
  'RETIRED',
  'ANNULLED',
  'CANCELLED',
  'TRANSFERRED',
  'PENDING_TRANSFER',
  'PENDING_ARCHIVAL',
] as const;
export type LeiRegistrationStatus = (typeof LEI_REGISTRATION_STATUSES)[number];

export interface LeiName {
  name: string;
  /** The language tag GLEIF gives ("en", "de-DE"), or null. */
  language: string | null;
}

export interface LeiOtherName extends LeiName {
  /** PREVIOUS_LEGAL_NAME, TRADING_OR_OPERATING_NAME, ALTERNATIVE_LANGUAGE_LEGAL_NAME, …_TRANSLITERATED_LEGAL_NAME. */
  type: string;
}

export interface LeiAddress {
  /** The address lines as given, blank ones dropped. */
  lines: string[];
  number: string | null;
  numberWithinBuilding: string | null;
  mailRouting: string | null;
  city: string;
  /** ISO 3166-2 subdivision ("GB-LND", "DE-HE"), or null. */
  region: string | null;
  /** ISO 3166-1 alpha-2. */
  country: string;
  postalCode: string | null;
  language: string | null;
}

export interface LeiAuthorityRef {
  /** GLEIF registration authority code (RA000585…); RA999999 / RA888888 are GLEIF's "none" and "other" codes. */
  id: string | null;
  /** The authority's name where it has no code of its own. */
  other: string | null;
}

export interface LeiEntityRef {
  lei: string | null;
  name: string | null;
}

/** One LEI record, every field checked. Entity dates are calendar days; registration dates are GLEIF's instants. */
export interface LeiRecord {
  lei: string;
  legalName: LeiName;
  /** Other names and transliterated names, told apart by `type`. */
  otherNames: LeiOtherName[];
  entityStatus: LeiEntityStatus;
  /** GENERAL, BRANCH, FUND, SOLE_PROPRIETOR, RESIDENT_GOVERNMENT_ENTITY, INTERNATIONAL_ORGANIZATION, or null. */
  entityCategory: string | null;
  entitySubCategory: string | null;
  registrationStatus: LeiRegistrationStatus;
  /**
   * The ISO 20275 ELF code (its name is not in the record: `/entity-legal-forms/{code}` gives it),
   * or null when GLEIF gives none (code 8888); `other` is GLEIF's text for a form without a code.
   */
  legalForm: { elfCode: string | null; other: string | null };
  /** ISO 3166-1 or 3166-2 ("GB", "US-DE"). */
  jurisdiction: string | null;
  legalAddress: LeiAddress;
  headquartersAddress: LeiAddress | null;
  /** The register the entity says it is in (cross-reference, not national data: see LeiSource). */
  registeredAt: LeiAuthorityRef;
  /** The entity's number in that register, as GLEIF writes it ("04366849", "HRB 7042"). */
  registeredAs: string | null;
  /** YYYY-MM-DD (see gleifCalendarDate). */
  creationDate: string | null;
  expiration: { date: string | null; reason: string | null } | null;
  successorEntities: LeiEntityRef[];
  /** For funds: the fund manager or umbrella. */
  associatedEntity: LeiEntityRef | null;
  initialRegistrationDate: string;
  lastUpdateDate: string;
  nextRenewalDate: string | null;
  /** The LEI of the LOU that manages this LEI. */
  managingLou: string;
  /** FULLY_CORROBORATED, PARTIALLY_CORROBORATED, ENTITY_SUPPLIED_ONLY. */
  corroborationLevel: string | null;
  validatedAt: LeiAuthorityRef | null;
  validatedAs: string | null;
  /** The golden copy the answer was served from (GLEIF's `meta.goldenCopy.publishDate`). */
  goldenCopyPublishDate: string | null;
  source: LeiSource;
}

export interface LeiRecordPage {
  records: LeiRecord[];
  total: number;
  currentPage: number;
  lastPage: number;
  perPage: number;
}

/** A JSON:API error object (status as a string, per JSON:API). */
export interface GleifError {
  status: string | null;
  title: string | null;
  detail: string | null;
}

export interface RegistrationAuthorityEntry {
  code: string;
  internationalName: string | null;
  localName: string | null;
  internationalOrganizationName: string | null;
  localOrganizationName: string | null;
  website: string | null;
  jurisdictions: { country: string | null; countryCode: string | null; jurisdiction: string | null }[];
}

export interface ParseContext {
  /** ISO 8601 UTC with milliseconds: when the answer was read. */
  retrievedAt: string;
  /** Base of record pages (REGISTER_LEI_WEB_URL); GLEIF's LEI Search by default. */
  webUrl?: string;
}
