import type { CountryCode } from '../../registers/register-table';
import { readAuAbnBulk } from '../readers/au-abn-bulk.reader';
import { readAuAsicCompanies } from '../readers/au-asic-companies.reader';
import { readCaOpenData } from '../readers/ca-open-data.reader';
import { readDkVirksomhed } from '../readers/dk-virksomhed.reader';
import { readFrStockUniteLegale } from '../readers/fr-stock-unite-legale.reader';
import { readGbBasicCompanyData } from '../readers/gb-basic-company-data.reader';
import { readNoEnheter } from '../readers/no-enheter.reader';
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
}

export const DATASET_FORMATS: readonly DatasetFormat[] = [
  {
    id: 'basiccompanydata-csv',
    country: 'GB',
    description: 'Companies House Free Company Data Product, BasicCompanyData CSV (zipped or not)',
    defaultDatasetName: 'companies-house-basiccompanydata',
    zipEntry: /\.csv$/i,
    read: readGbBasicCompanyData,
  },
  {
    id: 'stockunitelegale-csv',
    country: 'FR',
    description: 'INSEE Sirene StockUniteLegale CSV (zipped or not)',
    defaultDatasetName: 'insee-sirene-stockunitelegale',
    zipEntry: /\.csv$/i,
    read: readFrStockUniteLegale,
  },
  {
    id: 'enheter-json',
    country: 'NO',
    description: 'Brønnøysund Enhetsregisteret /enheter/lastned: gzipped JSON array of units',
    defaultDatasetName: 'brreg-enheter',
    zipEntry: /\.json$/i,
    read: readNoEnheter,
  },
  {
    id: 'virksomhed-jsonl',
    country: 'DK',
    description: 'CVR distribution virksomhed documents, one Elasticsearch hit per line (scroll dump)',
    defaultDatasetName: 'cvr-virksomhed',
    zipEntry: /\.(jsonl?|ndjson)$/i,
    read: readDkVirksomhed,
  },
  {
    id: 'abn-xml',
    country: 'AU',
    description: 'ABR ABN bulk extract XML (public_split_*.zip or one PublicNN.xml)',
    defaultDatasetName: 'abr-abn-bulk-extract',
    zipEntry: /\.xml$/i,
    read: readAuAbnBulk,
  },
  {
    id: 'asic-csv',
    country: 'AU',
    description: 'ASIC company dataset (tab- or comma-delimited text)',
    defaultDatasetName: 'asic-company-dataset',
    zipEntry: /\.(csv|txt|tsv)$/i,
    read: readAuAsicCompanies,
  },
  {
    id: 'opendata-xml',
    country: 'CA',
    description: 'Corporations Canada federal corporations open data (OPEN_DATA_SPLIT.zip or OPEN_DATA_n.xml)',
    defaultDatasetName: 'corporations-canada-open-data',
    zipEntry: /\.xml$/i,
    read: readCaOpenData,
  },
];

export function formatsOf(country: CountryCode): DatasetFormat[] {
  return DATASET_FORMATS.filter((f) => f.country === country);
}
