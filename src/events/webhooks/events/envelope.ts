import type { CountryCode } from '../../../registers/registers';
import type { EventKind } from '../../event-kinds';

/** `source` of every envelope: the name of the sending service. */
export const EVENT_SOURCE = 'registry-lookup';
export const EVENT_API_VERSION = 'v1';

/**
 * Where the record behind an event came from:
 * - `live`: read live from the official register itself (the only mode detection emits);
 * - `mirror`: read live from a public mirror of the register (e.g. FR recherche-entreprises), not official;
 * - `dataset`: a row of the fallback dataset or the bundled sample, not a read of the register now.
 */
export const SOURCE_MODES = ['live', 'mirror', 'dataset'] as const;
export type SourceMode = (typeof SOURCE_MODES)[number];

export interface RegisterRef {
  name: string;
  official_url: string;
}

export interface Provenance {
  source_mode: SourceMode;
  source_url: string;
  /** ISO 8601 UTC, milliseconds: the moment of reading (dataset rows: when the register produced the file). */
  retrieved_at: string;
}

export interface Change {
  field: string;
  previous: string | null;
  current: string | null;
  observed_at: string;
}

/**
 * data of company.status_changed, name_changed, address_changed, legal_form_changed.
 * `sequence` is given by the outbox (EventPublisher) to every event about a company: 1, 2, 3…
 * per account and company across kinds (test events count apart).
 */
export interface CompanyChangeData {
  entity_id: string;
  sequence?: number;
  country: CountryCode;
  company_name: string;
  registration_number: string;
  register: RegisterRef;
  change: Change;
  provenance: Provenance;
}

/** data of company.no_change: the company fields, `change: null`, and when it was checked. */
export interface CompanyNoChangeData extends Omit<CompanyChangeData, 'change'> {
  change: null;
  checked_at: string;
}

/** data of register.unavailable: which register stopped answering the probe, since when and why. */
export interface RegisterUnavailableData {
  country: CountryCode;
  register: RegisterRef;
  /** The register's status now (degraded or paused). */
  status: 'degraded' | 'paused';
  reason: string;
  /** ISO 8601 UTC: when the register stopped answering. */
  since: string;
  /** Where to follow the register's status (GET /api/public/v1/status). */
  status_url: string;
  /** How many companies of this register the receiving account watches. */
  watched_companies: number;
}

/** What happened to an officer: `change.action` of company.officers_changed. */
export const OFFICER_ACTIONS = ['appointed', 'resigned', 'details_changed'] as const;
export type OfficerAction = (typeof OFFICER_ACTIONS)[number];

/** One officer as the register writes it (`data.officer` of company.officers_changed). */
export interface OfficerData {
  /** The name as the register writes it ("BAILEY, Michael William"). */
  name: string;
  /** The role in the register's own words ("director", "Styrets leder", "člen představenstva"). */
  role: string;
  kind: 'person' | 'company';
  /** YYYY-MM-DD, where the register gives it. */
  appointed_on: string | null;
  resigned_on: string | null;
}

/** data of company.officers_changed: the company, `change` (field `officers`, its `action`), the officer. */
export interface OfficersChangedData extends Omit<CompanyChangeData, 'change'> {
  change: Change & { action: OfficerAction };
  officer: OfficerData;
}

/** One filing as the register lists it (`data.filing` of company.filing_published). */
export interface FilingData {
  /** The register's id of the filing (Companies House `transaction_id`). */
  id: string;
  category: string | null;
  /** The form's type code (AA, CS01, AP01…). */
  type: string | null;
  /** YYYY-MM-DD: when the register received it. */
  date: string | null;
  /** The register's description: its wording where it gives one, else its description key with the values filled in. */
  description: string;
  /** The register's own description key (Companies House's enumeration key). */
  description_code: string | null;
  /** The filing on the register's website. */
  url: string;
}

/** data of company.filing_published: the company, `change` (field `filings`), the filing. */
export interface FilingPublishedData extends Omit<CompanyChangeData, 'change'> {
  change: Change & { action: 'published' };
  filing: FilingData;
}

/** data of register.available: the register answers its probes again, after an outage from `outage.started_at`. */
export interface RegisterAvailableData {
  country: CountryCode;
  register: RegisterRef;
  status: 'live' | 'degraded';
  outage: { started_at: string; ended_at: string; duration_seconds: number };
}

export type EventData =
  | CompanyChangeData
  | CompanyNoChangeData
  | OfficersChangedData
  | FilingPublishedData
  | RegisterUnavailableData
  | RegisterAvailableData;

/** The company an event is about (its `data.entity_id`), or null for a register event. */
export function entityOf(data: EventData): string | null {
  return 'entity_id' in data && typeof data.entity_id === 'string' ? data.entity_id : null;
}

/** `data` with `sequence` right after `entity_id` (the contract's order, then ours). */
export function withSequence<D extends EventData>(data: D, sequence: number): D {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(data)) {
    if (k === 'sequence') continue;
    out[k] = v;
    if (k === 'entity_id') out.sequence = sequence;
  }
  return out as D;
}

export interface Envelope {
  event: EventKind;
  source: string;
  api_version: string;
  is_test: boolean;
  timestamp: string;
  data: EventData;
}

/** The contract's envelope, in the contract's field order; `timestamp` in whole seconds (2026-11-23T10:15:30Z). */
export function buildEnvelope(kind: EventKind, isTest: boolean, at: Date, data: EventData): Envelope {
  return {
    event: kind,
    source: EVENT_SOURCE,
    api_version: EVENT_API_VERSION,
    is_test: isTest,
    timestamp: isoSeconds(at),
    data,
  };
}

export function isoSeconds(at: Date): string {
  return `${at.toISOString().slice(0, 19)}Z`;
}

/** A record's source kind (native_official, public_mirror:x, dataset:x) → the envelope's source_mode. */
export function sourceModeOf(kind: string): SourceMode {
  if (kind.startsWith('dataset:')) return 'dataset';
  if (kind.startsWith('public_mirror:')) return 'mirror';
  return 'live';
}
