import type { CountryCode } from '../registers';
import type { DatasetReader } from './dataset-row';

/** One published bulk format of one register. */
export interface DatasetFormat {
  id: string;
  country: CountryCode;
  description: string;
  /** Dataset name when --dataset-name is not given (source kind `dataset:<name>`). */
  defaultDatasetName: string;
  /** Which entries of a zip hold records. */
  zipEntry: RegExp;
  read: DatasetReader;
  /** The structure the reader expects, for the error when a file yields no record. */
  expects: string;
  /**
   * Whether the first characters of a file (decompressed) are of this format; lets the importer
   * choose among a register's formats without --format.
   */
  recognize?: (head: string) => boolean;
}
