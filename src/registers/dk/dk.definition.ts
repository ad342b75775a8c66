import type { RegisterDefinition } from '../register-definition';

/** What the service knows of this register as data: names, URLs, endpoints, credentials, capabilities. */
export const DK_DEFINITION: RegisterDefinition = {
  country: 'DK',
  countryName: 'Denmark',
  name: 'Det Centrale Virksomhedsregister',
  short: 'CVR',
  officialUrl: 'https://datacvr.virk.dk',
  reuseTermsUrl: 'https://datacvr.virk.dk/artikel/vilkaar-og-betingelser',
  provides: { officers: true, filings: false, monitoring: true },
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
  doesNotPublish:
    "Officers' personal identity (CPR) numbers; units marked reklamebeskyttet are served with that flag and must not be used for marketing",
};
