import type { RegisterDefinition } from '../register-definition';

/** What the service knows of this register as data: names, URLs, endpoints, credentials, capabilities. */
export const CA_DEFINITION: RegisterDefinition = {
  country: 'CA',
  countryName: 'Canada',
  name: 'Corporations Canada federal corporations register',
  short: 'Corporations Canada',
  officialUrl: 'https://ised-isde.canada.ca/cc/lgcy/fdrlCrpSrch.html',
  reuseTermsUrl: 'https://open.canada.ca/en/open-government-licence-canada',
  provides: { officers: true, filings: false, monitoring: true },
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
};
