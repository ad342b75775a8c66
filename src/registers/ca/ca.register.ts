import type { Register } from '../register';
import { readCaOpenData } from './ca-open-data.reader';
import { CA_CHANGE_DETECTION } from './ca.change-detection';
import { CaConnector } from './ca.connector';
import { CA_DEFINITION } from './ca.definition';
import { recognizeCaIdentifier } from './ca.identifier';

/** Everything the service knows of this register: its data, connector, identifiers, bulk files and name words. */
export const CA_REGISTER: Register = {
  definition: CA_DEFINITION,
  connector: CaConnector,
  recognizeIdentifier: recognizeCaIdentifier,
  bulkFormats: [
    {
      id: 'opendata-xml',
      country: 'CA',
      description: 'Corporations Canada federal corporations open data (OPEN_DATA_SPLIT.zip or OPEN_DATA_n.xml)',
      defaultDatasetName: 'corporations-canada-open-data',
      zipEntry: /\.xml$/i,
      read: readCaOpenData,
      expects: 'XML with <corporation> records inside <cc:corpcan><corporations>, as OPEN_DATA_n.xml writes them',
    },
  ],
  nameStopWords: ['ltee', 'limitee', 'incorporated', 'cie', 'les', 'des'],
  changeDetection: CA_CHANGE_DETECTION,
};
