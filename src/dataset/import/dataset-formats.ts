import { BULK_FORMATS } from '../../registers/bulk-formats';
import { COUNTRY_CODES, CountryCode } from '../../registers/register-table';
import type { DatasetFormat } from '../../registers/bulk/dataset-format';

export type { DatasetFormat } from '../../registers/bulk/dataset-format';

/** Every bulk format of every register (each register's folder declares its own). */
export const DATASET_FORMATS: readonly DatasetFormat[] = COUNTRY_CODES.flatMap((cc) => BULK_FORMATS[cc]);

export function formatsOf(country: CountryCode): readonly DatasetFormat[] {
  return BULK_FORMATS[country];
}
