import { COUNTRY_CODES, CountryCode, REGISTERS } from '../../registers/registers';
import type { DatasetFormat } from '../../registers/bulk/dataset-format';

export type { DatasetFormat } from '../../registers/bulk/dataset-format';

/** Every bulk format of every register (each register's folder declares its own). */
export const DATASET_FORMATS: readonly DatasetFormat[] = COUNTRY_CODES.flatMap((cc) => REGISTERS[cc].bulkFormats);

export function formatsOf(country: CountryCode): readonly DatasetFormat[] {
  return REGISTERS[country].bulkFormats;
}
