import type { CountryCode } from './registers';

/** The shape of what the service knows of one register as data (each register's `<cc>.definition.ts`). */

/** How hard we may press one register endpoint, per process. */
export interface Politeness {
  maxConcurrent: number;
  /** Minimum spacing between request starts. */
  minTimeMs: number;
  /** A published quota: at most `count` requests per `windowMs`. */
  quota?: { count: number; windowMs: number };
}

export interface RegisterEndpoint {
  /** Default base URL; overridden by REGISTER_<CC>_<PURPOSE>_URL. */
  defaultUrl: string;
  description: string;
  politeness: Politeness;
  /** Only the base of record links (source.url): never read by the service. */
  linksOnly?: boolean;
}

export interface RegisterCredential {
  description: string;
}

export interface RegisterProvides {
  officers: boolean;
  filings: boolean;
  monitoring: boolean;
}

export interface RegisterDefinition {
  country: CountryCode;
  countryName: string;
  name: string;
  short: string;
  officialUrl: string;
  reuseTermsUrl: string;
  provides: RegisterProvides;
  /** Base URLs the connector and the probe use, keyed by PURPOSE (REGISTER_<CC>_<PURPOSE>_URL). */
  endpoints: Record<string, RegisterEndpoint>;
  /** Credentials, keyed by NAME (REGISTER_<CC>_<NAME>). */
  credentials: Record<string, RegisterCredential>;
  /**
   * Credentials without which the register cannot be read live at all: when one is missing
   * the register is `paused` and the fallback dataset answers.
   */
  requiredCredentials: string[];
  /** Which officers are returned, from which source, for the coverage table. */
  officersNote: string;
  /** What the register does not publish (or this service does not serve), for the coverage table. */
  doesNotPublish: string;
}
