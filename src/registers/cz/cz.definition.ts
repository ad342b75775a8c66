import type { RegisterDefinition } from '../register-definition';

/** What the service knows of this register as data: names, URLs, endpoints, credentials, capabilities. */
export const CZ_DEFINITION: RegisterDefinition = {
  country: 'CZ',
  countryName: 'Czechia',
  name: 'ARES – Administrativní registr ekonomických subjektů (Ministerstvo financí)',
  short: 'ARES',
  officialUrl: 'https://ares.gov.cz',
  // Operating terms of ARES as third-party clients link them (registers-next.md: reuse terms UNVERIFIED).
  reuseTermsUrl: 'https://ares.gov.cz/stranky/podminky-provozu',
  provides: { officers: true, filings: false, monitoring: true },
  endpoints: {
    API: {
      defaultUrl: 'https://ares.gov.cz/ekonomicke-subjekty-v-be/rest',
      description: 'ARES public REST API (no key)',
      // ARES allows about 500 requests a minute (as third-party clients quote its terms; UNVERIFIED): take half.
      politeness: { maxConcurrent: 2, minTimeMs: 240, quota: { count: 250, windowMs: 60_000 } },
    },
    WEB: {
      defaultUrl: 'https://ares.gov.cz',
      description: 'ARES record pages (/ekonomicke-subjekty?ico=)',
      politeness: { maxConcurrent: 1, minTimeMs: 1_000 },
      linksOnly: true,
    },
  },
  credentials: {},
  requiredCredentials: [],
  officersNote:
    'Members of the statutory and other bodies and procurators from the public register (VR), current and former, with start and end dates',
  doesNotPublish:
    'Filings (the collection of deeds is not in ARES); a bulk file (the fallback dataset holds only the bundled sample); officers of subjects outside the public register (sole traders); officer birth dates and home addresses are not served',
};
