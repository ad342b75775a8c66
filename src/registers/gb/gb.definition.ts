import type { RegisterDefinition } from '../register-definition';

/** What the service knows of this register as data: names, URLs, endpoints, credentials, capabilities. */
export const GB_DEFINITION: RegisterDefinition = {
  country: 'GB',
  countryName: 'United Kingdom',
  name: 'Companies House register of companies',
  short: 'Companies House',
  officialUrl: 'https://find-and-update.company-information.service.gov.uk',
  reuseTermsUrl:
    'https://www.gov.uk/government/publications/companies-house-accreditation-to-information-fair-traders-scheme',
  provides: { officers: true, filings: false, monitoring: true },
  endpoints: {
    API: {
      defaultUrl: 'https://api.company-information.service.gov.uk',
      description: 'Companies House Public Data API (used when REGISTER_GB_API_KEY is set)',
      politeness: { maxConcurrent: 4, minTimeMs: 0, quota: { count: 600, windowMs: 300_000 } },
    },
    WEB: {
      defaultUrl: 'https://find-and-update.company-information.service.gov.uk',
      description: 'Companies House public website (search and company pages; used without a key)',
      politeness: { maxConcurrent: 2, minTimeMs: 250 },
    },
    STREAM: {
      defaultUrl: 'https://stream.companieshouse.gov.uk',
      description:
        'Companies House streaming API (companies stream; used for change detection when REGISTER_GB_STREAM_KEY is set)',
      // Companies House allows 2 connections per account; detection holds one.
      politeness: { maxConcurrent: 1, minTimeMs: 1_000 },
    },
  },
  credentials: {
    API_KEY: { description: 'Companies House REST API key (HTTP Basic username)' },
    STREAM_KEY: {
      description:
        'Companies House streaming API key (HTTP Basic username): change detection follows the companies stream instead of re-reading',
    },
  },
  requiredCredentials: [],
  officersNote: 'Directors, secretaries and members with appointment and resignation dates (API and website)',
  doesNotPublish: 'Officer birth dates beyond month and year; filings are not served here',
};
