import type { DatasetFormat } from '../bulk/dataset-format';
import { readGbBasicCompanyData } from './gb-basic-company-data.reader';

/** The bulk files of this register the dataset import reads (kept apart from the connector: the import loads none). */
export const GB_BULK_FORMATS: readonly DatasetFormat[] = [
  {
    id: 'basiccompanydata-csv',
    country: 'GB',
    description: 'Companies House Free Company Data Product, BasicCompanyData CSV (zipped or not)',
    defaultDatasetName: 'companies-house-basiccompanydata',
    zipEntry: /\.csv$/i,
    read: readGbBasicCompanyData,
    expects: 'a CSV whose header line names CompanyName, CompanyNumber, … (55 columns), then one line per company',
  },
];
