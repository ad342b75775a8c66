import { CountryCode } from '../../registers/register-table';
import { REGISTER_LIST, REGISTERS } from '../../registers/registers';
import type { DatasetFormat } from './dataset-format';

export type { DatasetFormat } from './dataset-format';

/** Every bulk format of every register (each register's folder declares its own). */
export const DATASET_FORMATS: readonly DatasetFormat[] = REGISTER_LIST.flatMap((r) => r.bulkFormats);

export function formatsOf(country: CountryCode): readonly DatasetFormat[] {
  return REGISTERS[country].bulkFormats;
}
