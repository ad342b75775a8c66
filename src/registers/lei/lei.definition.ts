import type { RegisterEndpoint } from '../register-definition';

/**
 * What the service knows of GLEIF's index as data. Not a `RegisterDefinition`: the index
 * belongs to no country, answers no company search and has no fallback dataset. Its base URLs
 * are configured like a register's, with `LEI` in place of the country code
 * (REGISTER_LEI_API_URL, REGISTER_LEI_WEB_URL).
 */
export interface LeiIndexDefinition {
  name: string;
  short: string;
  officialUrl: string;
  reuseTermsUrl: string;
  /** The licence the reuse terms state, for the attribution line. */
  licence: string;
  endpoints: { API: RegisterEndpoint; WEB: RegisterEndpoint };
}

/** The environment variable that overrides an endpoint's base URL. */
export function leiEndpointEnvVar(purpose: keyof LeiIndexDefinition['endpoints']): string {
  return `REGISTER_LEI_${purpose}_URL`;
}

export const LEI_DEFINITION: LeiIndexDefinition = {
  name: 'GLEIF Global LEI Index',
  short: 'GLEIF',
  officialUrl: 'https://www.gleif.org',
  // "The data available through the Access Service are provided under the CC0 licence" (quoted by
  // several third parties; registers-next.md §4 marks it UNVERIFIED against the page itself).
  reuseTermsUrl: 'https://www.gleif.org/en/meta/lei-data-terms-of-use',
  licence: 'CC0 1.0',
  endpoints: {
    API: {
      defaultUrl: 'https://api.gleif.org/api/v1',
      description: 'GLEIF API (JSON:API): LEI records, and LEIs of national numbers in one batched request',
      // GLEIF publishes no limit; clients report throttling at about 60 requests a minute, so stay
      // under it: the quota is the limit. The spacing is a quarter of a second, not a full one:
      // the `lei` of a search waits for GLEIF at most LEI_LOOKUP_TIMEOUT_MS (800 ms), queueing
      // included, and a second's spacing would leave every lookup that follows another within
      // the second without its LEI.
      politeness: { maxConcurrent: 2, minTimeMs: 250, quota: { count: 60, windowMs: 60_000 } },
    },
    WEB: {
      defaultUrl: 'https://search.gleif.org',
      description: 'GLEIF LEI Search (record pages linked as source.url)',
      politeness: { maxConcurrent: 1, minTimeMs: 1_000 },
      linksOnly: true,
    },
  },
};

/** A record's human-readable page at GLEIF's LEI Search (a client-side route after `#`). */
export function leiRecordPageUrl(lei: string, webUrl: string = LEI_DEFINITION.endpoints.WEB.defaultUrl): string {
  return `${webUrl.replace(/\/+$/, '')}/#/record/${lei}`;
}
