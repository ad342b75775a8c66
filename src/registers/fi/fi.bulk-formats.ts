import type { DatasetFormat } from '../bulk/dataset-format';
import { FI } from './fi.definition';
import { readFiAllCompanies } from './fi-all-companies.reader';

/** The bulk files of this register the dataset import reads (kept apart from the connector: the import loads none). */
export const FI_BULK_FORMATS: readonly DatasetFormat[] = [
  {
    id: 'all-companies-json',
    country: FI,
    description: 'PRH YTJ open data /all_companies: zip of one JSON array of companies (refreshed daily)',
    defaultDatasetName: 'prh-ytj-all-companies',
    zipEntry: /\.json$/i,
    read: readFiAllCompanies,
    expects: 'a JSON array of YTJ company objects: [{"businessId": {"value": "0112038-9", …}, "names": […], …}, …]',
  },
];
