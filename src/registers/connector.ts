import type { Clock } from '../platform/clock';
import type { AppConfig } from '../platform/config/app-config';
import type { HttpClientFactory } from './client/http-client.factory';
import type { RegisterConfig } from './register-config';
import type { CountryCode } from './registers';

/**
 * Normalised status category beside the register's own wording. Documented in OpenAPI;
 * mapping per register lives in each connector.
 */
export const STATUS_CATEGORIES = [
  'active',
  'in_liquidation',
  'insolvency',
  'dissolved',
  'struck_off',
  'unknown',
] as const;
export type StatusCategory = (typeof STATUS_CATEGORIES)[number];

/**
 * Where a record came from:
 * - `native_official`: the register's own API;
 * - `native_official_website`: the register's own public website (HTML pages);
 * - `public_mirror:<name>`: a third-party or State mirror of the register (never official);
 * - `dataset:<name>`: a row of the fallback dataset imported from a bulk file (never official).
 */
export type SourceKind =
  'native_official' | 'native_official_website' | `public_mirror:${string}` | `dataset:${string}`;

export interface RecordSource {
  /** Register name, as in the register table. */
  register: string;
  /** Exact human-readable record page at the register. */
  url: string;
  /** True only for a live read from the register itself. */
  official: boolean;
  kind: SourceKind;
  /** ISO 8601 UTC with milliseconds: the moment of reading (dataset rows: when the row was produced). */
  retrievedAt: string;
}

export interface CompanyRecord {
  name: string;
  registrationNumber: string;
  country: CountryCode;
  /** Status as worded by the register, in its own language; null when it publishes none. */
  status: string | null;
  statusCategory: StatusCategory;
  /** Legal form as worded by the register. */
  legalForm: string | null;
  /** One line built from the structured address; null when the register publishes none. */
  address: string | null;
  city: string | null;
  /** YYYY-MM-DD. */
  incorporationDate: string | null;
  source: RecordSource;
  /** Register-specific facts worth carrying (for example DK `reklamebeskyttet`, the ACN of an ABN). */
  extra?: Record<string, unknown>;
}

export interface Officer {
  name: string;
  /** Role as worded by the register. */
  role: string;
  kind: 'person' | 'company';
  /** YYYY-MM-DD where the register gives it. */
  appointedOn: string | null;
  resignedOn: string | null;
}

export interface CompanyDetail extends CompanyRecord {
  /** null when the register (or the source used) does not publish officers. */
  officers: Officer[] | null;
}

/** The live source a connector reads under the current configuration. */
export interface ConnectorSource {
  kind: SourceKind;
  official: boolean;
  /** Human description, used in warnings ("the public recherche-entreprises mirror"). */
  description: string;
}

/**
 * One register. A connector knows its register's API and formats and nothing of our HTTP
 * responses. It throws UpstreamError when the register fails or answers with something it
 * cannot understand; it returns null / [] for "no such company" answers.
 */
export interface RegisterConnector {
  readonly country: CountryCode;
  /** The source live reads come from under the current configuration. */
  source(): ConnectorSource;
  /**
   * Why live reads are impossible under the current configuration (a missing credential),
   * or null when they are possible. A non-null reason makes the register `paused`.
   */
  unavailableReason(): string | null;
  /** Name search; at most `limit` results, best first as the register ranks them. */
  searchByName(name: string, limit: number): Promise<CompanyRecord[]>;
  /** Lookup by a normalised registration number; null when the register has no such company. */
  lookup(registrationNumber: string): Promise<CompanyDetail | null>;
  /**
   * The record alone (no officers) in the fewest requests the register allows: what change
   * detection re-reads. Same parsing and provenance as `lookup`; null when there is no such company.
   */
  readRecord(registrationNumber: string): Promise<CompanyRecord | null>;
  /** One cheap real request for a known record; resolves with the HTTP status, throws on failure. */
  probe(): Promise<{ httpStatus: number }>;
}

/** What a connector is built with: its register's own settings, the service's, the register HTTP client and the clock. */
export interface ConnectorDeps {
  settings: RegisterConfig;
  config: AppConfig;
  http: HttpClientFactory;
  clock: Clock;
}
