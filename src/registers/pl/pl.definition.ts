import type { RegisterDefinition } from '../register-definition';

/** The register's country code, as every PL file takes it. */
export const PL = 'PL';

/** What the service knows of this register as data: names, URLs, endpoints, credentials, capabilities. */
export const PL_DEFINITION: RegisterDefinition = {
  country: PL,
  countryName: 'Poland',
  name: 'Krajowy Rejestr Sądowy (Ministerstwo Sprawiedliwości)',
  short: 'KRS',
  // The ministry's public KRS search: the open API answers JSON only and has no page per record.
  officialUrl: 'https://wyszukiwarka-krs.ms.gov.pl',
  // Listed on dane.gov.pl (dataset 27606, "API Krajowego Rejestru Sądowego") under CC0 1.0: UNVERIFIED.
  reuseTermsUrl: 'https://dane.gov.pl/pl/dataset/27606',
  provides: { officers: true, filings: false, monitoring: true },
  endpoints: {
    API: {
      defaultUrl: 'https://api-krs.ms.gov.pl/api/krs',
      description: 'KRS Open API of the Ministry of Justice (no key)',
      // No published quota. The ministry's API serves the whole country's court register; one
      // lookup costs up to two reads (register P, then S) and a removed entity two more, so
      // stay near the ~500 ms pace its known clients keep rather than the NO/DK rates.
      politeness: { maxConcurrent: 2, minTimeMs: 500 },
    },
  },
  credentials: {},
  requiredCredentials: [],
  officersNote:
    'The board or other representing organ (dzial2.reprezentacja) with each function; names are masked by the Ministry of Justice (e.g. J*** K*****) and shown as masked; no dates in the current extract',
  doesNotPublish:
    'Name search and lookup by NIP or REGON (lookup by KRS number only; names, NIP and REGON are looked for in the fallback dataset), a bulk file, officer appointment dates in the current extract, unmasked names of natural persons',
};
