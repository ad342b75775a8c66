import type { Register } from '../register';
import { readGbBasicCompanyData } from './gb-basic-company-data.reader';
import { GB_CHANGE_DETECTION } from './gb.change-detection';
import { GbConnector } from './gb.connector';
import { GB_DEFINITION } from './gb.definition';
import { recognizeGbIdentifier } from './gb.identifier';

/** Everything the service knows of this register: its data, connector, identifiers, bulk files and name words. */
export const GB_REGISTER: Register = {
  definition: GB_DEFINITION,
  connector: GbConnector,
  recognizeIdentifier: recognizeGbIdentifier,
  bulkFormats: [
    {
      id: 'basiccompanydata-csv',
      country: 'GB',
      description: 'Companies House Free Company Data Product, BasicCompanyData CSV (zipped or not)',
      defaultDatasetName: 'companies-house-basiccompanydata',
      zipEntry: /\.csv$/i,
      read: readGbBasicCompanyData,
      expects: 'a CSV whose header line names CompanyName, CompanyNumber, … (55 columns), then one line per company',
    },
  ],
  nameStopWords: [],
  changeDetection: GB_CHANGE_DETECTION,
};
