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

/** data of company.status_changed, name_changed, address_changed, legal_form_changed. */
export interface CompanyChangeData {
  entity_id: string;
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

export type EventData = CompanyChangeData | CompanyNoChangeData | RegisterUnavailableData;

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
