import type { RegisterDefinition } from '../register-definition';

/** What the service knows of this register as data: names, URLs, endpoints, credentials, capabilities. */
export const AU_DEFINITION: RegisterDefinition = {
  country: 'AU',
  countryName: 'Australia',
  name: 'Australian Business Register (ABN Lookup)',
  short: 'ABR',
  officialUrl: 'https://abr.business.gov.au',
  reuseTermsUrl: 'https://abr.business.gov.au/Tools/WebServices',
  provides: { officers: false, filings: false, monitoring: true },
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
};
