import type { DatasetFormat } from './bulk/dataset-format';
import { GB_BULK_FORMATS } from './gb/gb.bulk-formats';
import { AU_BULK_FORMATS } from './au/au.bulk-formats';
import { CA_BULK_FORMATS } from './ca/ca.bulk-formats';
import { FR_BULK_FORMATS } from './fr/fr.bulk-formats';
import { DK_BULK_FORMATS } from './dk/dk.bulk-formats';
import { NO_BULK_FORMATS } from './no/no.bulk-formats';
import type { CountryCode } from './register-table';

/**
 * Every register's bulk formats, keyed by country, without the registers' connectors: what
 * the dataset import needs, and all it loads (the connectors bring NestJS, axios and Redis's
 * client, 0.2 s of a process's start).
 */
export const BULK_FORMATS: Record<CountryCode, readonly DatasetFormat[]> = {
  GB: GB_BULK_FORMATS,
  AU: AU_BULK_FORMATS,
  CA: CA_BULK_FORMATS,
  FR: FR_BULK_FORMATS,
  DK: DK_BULK_FORMATS,
  NO: NO_BULK_FORMATS,
};
