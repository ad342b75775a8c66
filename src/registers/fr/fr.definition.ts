import type { RegisterDefinition } from '../register-definition';

/** What the service knows of this register as data: names, URLs, endpoints, credentials, capabilities. */
export const FR_DEFINITION: RegisterDefinition = {
  country: 'FR',
  countryName: 'France',
  name: "Répertoire Sirene de l'INSEE",
  short: 'INSEE Sirene',
  officialUrl: 'https://www.sirene.fr',
  reuseTermsUrl: 'https://www.etalab.gouv.fr/licence-ouverte-open-licence/',
  provides: { officers: true, filings: false, monitoring: true },
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
      description: 'Annuaire des Entreprises record pages (human-readable links)',
      politeness: { maxConcurrent: 2, minTimeMs: 250 },
      linksOnly: true,
    },
  },
  credentials: { API_KEY: { description: 'INSEE API Sirene key (X-INSEE-Api-Key-Integration)' } },
  requiredCredentials: [],
  officersNote: "Current dirigeants (no dates) from the mirror; INSEE's API publishes none",
  doesNotPublish: 'Liquidation or insolvency states (Sirene knows only active or ceased); officer appointment dates',
};
