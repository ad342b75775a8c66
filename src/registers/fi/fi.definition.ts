import type { RegisterDefinition } from '../registers';

export const FI = 'FI';

/** What the service knows of this register as data: names, URLs, endpoints, credentials, capabilities. */
export const FI_DEFINITION: RegisterDefinition = {
  country: FI,
  countryName: 'Finland',
  name: 'Yritys- ja yhteisötietojärjestelmä YTJ (Patentti- ja rekisterihallitus)',
  short: 'PRH',
  officialUrl: 'https://www.ytj.fi',
  reuseTermsUrl: 'https://creativecommons.org/licenses/by/4.0/',
  provides: { officers: false, filings: false, monitoring: true },
  endpoints: {
    API: {
      defaultUrl: 'https://avoindata.prh.fi/opendata-ytj-api/v3',
      description: 'PRH open data YTJ API v3 (no key)',
      // v3 publishes no limit; the retired v1 allowed 300 requests/min shared by all users: we take at most 120/min.
      politeness: { maxConcurrent: 2, minTimeMs: 500 },
    },
    WEB: {
      defaultUrl: 'https://tietopalvelu.ytj.fi',
      description: 'tietopalvelu.ytj.fi record pages',
      politeness: { maxConcurrent: 2, minTimeMs: 250 },
      linksOnly: true,
    },
  },
  credentials: {},
  requiredCredentials: [],
  officersNote: 'None: the YTJ open data API publishes no officers',
  doesNotPublish: 'Officers, beneficial owners and financial statements (none is in the YTJ open data API)',
};
