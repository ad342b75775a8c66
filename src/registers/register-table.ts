/**
 * THE register table. `/registers`, `/status`, search routing, the MCP tool descriptions,
 * configuration (every REGISTER_<CC>_* variable) and the README's coverage table are all
 * derived from this one constant. Facts come from shared/registers-*.md.
 */
export const COUNTRY_CODES = ['GB', 'AU', 'CA', 'FR', 'DK', 'NO'] as const;
export type CountryCode = (typeof COUNTRY_CODES)[number];

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

export const REGISTER_TABLE: readonly RegisterDefinition[] = [
  {
    country: 'GB',
    countryName: 'United Kingdom',
    name: 'Companies House register of companies',
    short: 'Companies House',
    officialUrl: 'https://find-and-update.company-information.service.gov.uk',
    reuseTermsUrl:
      'https://www.gov.uk/government/publications/companies-house-accreditation-to-information-fair-traders-scheme',
    provides: { officers: true, filings: false, monitoring: false },
    endpoints: {
      API: {
        defaultUrl: 'https://api.company-information.service.gov.uk',
        description: 'Companies House Public Data API (used when REGISTER_GB_API_KEY is set)',
        politeness: { maxConcurrent: 4, minTimeMs: 0, quota: { count: 600, windowMs: 300_000 } },
      },
      WEB: {
        defaultUrl: 'https://find-and-update.company-information.service.gov.uk',
        description: "Companies House public website (search and company pages; used without a key)",
        politeness: { maxConcurrent: 2, minTimeMs: 250 },
      },
    },
    credentials: { API_KEY: { description: 'Companies House REST API key (HTTP Basic username)' } },
    requiredCredentials: [],
    officersNote: 'Directors, secretaries and members with appointment and resignation dates (API and website)',
    doesNotPublish: 'Officer birth dates beyond month and year; filings are not served here',
  },
  {
    country: 'AU',
    countryName: 'Australia',
    name: 'Australian Business Register (ABN Lookup)',
    short: 'ABR',
    officialUrl: 'https://abr.business.gov.au',
    reuseTermsUrl: 'https://abr.business.gov.au/Tools/WebServices',
    provides: { officers: false, filings: false, monitoring: false },
    endpoints: {
      API: {
        defaultUrl: 'https://abr.business.gov.au',
        description: 'ABN Lookup JSON web services (AbnDetails, AcnDetails, MatchingNames)',
        politeness: { maxConcurrent: 4, minTimeMs: 100 },
      },
    },
    credentials: { GUID: { description: 'ABN Lookup web services authentication GUID' } },
    requiredCredentials: ['GUID'],
    officersNote: 'None: ABN Lookup publishes no officers',
    doesNotPublish: 'Street and city (only state and postcode), incorporation date, officers (ASIC sells them)',
  },
  {
    country: 'CA',
    countryName: 'Canada',
    name: 'Corporations Canada federal corporations register',
    short: 'Corporations Canada',
    officialUrl: 'https://ised-isde.canada.ca/cc/lgcy/fdrlCrpSrch.html',
    reuseTermsUrl: 'https://open.canada.ca/en/open-government-licence-canada',
    provides: { officers: true, filings: false, monitoring: false },
    endpoints: {
      API: {
        defaultUrl: 'https://www.ic.gc.ca/app/scr/cc/CorporationsCanada',
        description: 'Keyless federal corporation JSON (api/corporations/{id}.json)',
        politeness: { maxConcurrent: 2, minTimeMs: 200 },
      },
      GATEWAY: {
        defaultUrl: 'https://apigateway-passerelledapi.ised-isde.canada.ca/corporations',
        description: 'ISED API gateway (used when REGISTER_CA_API_KEY is set; directors)',
        politeness: { maxConcurrent: 2, minTimeMs: 0, quota: { count: 60, windowMs: 60_000 } },
      },
      WEB: {
        defaultUrl: 'https://ised-isde.canada.ca/cc/lgcy',
        description: 'Federal corporation search pages (record links)',
        politeness: { maxConcurrent: 2, minTimeMs: 250 },
        linksOnly: true,
      },
    },
    credentials: { API_KEY: { description: 'ISED API Store user-key (directors as officers)' } },
    requiredCredentials: [],
    officersNote: 'Directors (no dates), with REGISTER_CA_API_KEY only; none from the keyless JSON',
    doesNotPublish: 'Provincial corporations; directors only through the keyed ISED gateway',
  },
  {
    country: 'FR',
    countryName: 'France',
    name: "Répertoire Sirene de l'INSEE",
    short: 'INSEE Sirene',
    officialUrl: 'https://www.sirene.fr',
    reuseTermsUrl: 'https://www.etalab.gouv.fr/licence-ouverte-open-licence/',
    provides: { officers: true, filings: false, monitoring: false },
    endpoints: {
      API: {
        defaultUrl: 'https://api.insee.fr/api-sirene/3.11',
        description: 'INSEE API Sirene (used when REGISTER_FR_API_KEY is set)',
        politeness: { maxConcurrent: 2, minTimeMs: 0, quota: { count: 30, windowMs: 60_000 } },
      },
      MIRROR: {
        defaultUrl: 'https://recherche-entreprises.api.gouv.fr',
        description: "The State's open recherche-entreprises API, a mirror of Sirene (used without a key)",
        politeness: { maxConcurrent: 4, minTimeMs: 143, quota: { count: 7, windowMs: 1_000 } },
      },
      WEB: {
        defaultUrl: 'https://annuaire-entreprises.data.gouv.fr',
        description: "Annuaire des Entreprises record pages (human-readable links)",
        politeness: { maxConcurrent: 2, minTimeMs: 250 },
        linksOnly: true,
      },
    },
    credentials: { API_KEY: { description: 'INSEE API Sirene key (X-INSEE-Api-Key-Integration)' } },
    requiredCredentials: [],
    officersNote: "Current dirigeants (no dates) from the mirror; INSEE's API publishes none",
    doesNotPublish: 'Liquidation or insolvency states (Sirene knows only active or ceased); officer appointment dates',
  },
  {
    country: 'DK',
    countryName: 'Denmark',
    name: 'Det Centrale Virksomhedsregister',
    short: 'CVR',
    officialUrl: 'https://datacvr.virk.dk',
    reuseTermsUrl: 'https://datacvr.virk.dk/artikel/vilkaar-og-betingelser',
    provides: { officers: true, filings: false, monitoring: false },
    endpoints: {
      API: {
        defaultUrl: 'http://distribution.virk.dk',
        description: 'CVR system-to-system Elasticsearch distribution (cvr-permanent)',
        politeness: { maxConcurrent: 4, minTimeMs: 50 },
      },
      WEB: {
        defaultUrl: 'https://datacvr.virk.dk',
        description: 'datacvr.virk.dk record pages',
        politeness: { maxConcurrent: 2, minTimeMs: 250 },
        linksOnly: true,
      },
    },
    credentials: {
      USERNAME: { description: 'CVR system-to-system username (Erhvervsstyrelsen)' },
      PASSWORD: { description: 'CVR system-to-system password' },
    },
    requiredCredentials: ['USERNAME', 'PASSWORD'],
    officersNote: 'Management, board, founders, auditors and owners, with their periods',
    doesNotPublish: "Officers' personal identity (CPR) numbers; units marked reklamebeskyttet are served with that flag and must not be used for marketing",
  },
  {
    country: 'NO',
    countryName: 'Norway',
    name: 'Enhetsregisteret (Brønnøysundregistrene)',
    short: 'Brønnøysund',
    officialUrl: 'https://www.brreg.no',
    reuseTermsUrl: 'https://data.norge.no/nlod/no/2.0',
    provides: { officers: true, filings: false, monitoring: false },
    endpoints: {
      API: {
        defaultUrl: 'https://data.brreg.no/enhetsregisteret/api',
        description: 'Enhetsregisteret open API (no key)',
        politeness: { maxConcurrent: 4, minTimeMs: 50 },
      },
      WEB: {
        defaultUrl: 'https://virksomhet.brreg.no',
        description: 'virksomhet.brreg.no record pages',
        politeness: { maxConcurrent: 2, minTimeMs: 250 },
        linksOnly: true,
      },
    },
    credentials: {},
    requiredCredentials: [],
    officersNote: 'Current roles (daily manager, board, auditor…) without dates; resigned roles listed apart',
    doesNotPublish: 'Officer appointment dates (only a resigned flag and a per-group change date)',
  },
];

const BY_COUNTRY = new Map<string, RegisterDefinition>(REGISTER_TABLE.map((r) => [r.country, r]));

export function findRegister(country: string): RegisterDefinition | undefined {
  return BY_COUNTRY.get(country.toUpperCase());
}

export function isCountryCode(value: string): value is CountryCode {
  return BY_COUNTRY.has(value);
}
