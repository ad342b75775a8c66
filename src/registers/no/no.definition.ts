import type { RegisterDefinition } from '../register-definition';

/** What the service knows of this register as data: names, URLs, endpoints, credentials, capabilities. */
export const NO_DEFINITION: RegisterDefinition = {
  country: 'NO',
  countryName: 'Norway',
  name: 'Enhetsregisteret (Brønnøysundregistrene)',
  short: 'Brønnøysund',
  officialUrl: 'https://www.brreg.no',
  reuseTermsUrl: 'https://data.norge.no/nlod/no/2.0',
  provides: { officers: true, filings: false, monitoring: true },
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
};
