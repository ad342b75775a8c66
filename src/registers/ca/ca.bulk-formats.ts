import type { DatasetFormat } from '../bulk/dataset-format';
import { readCaOpenData } from './ca-open-data.reader';

/** The bulk files of this register the dataset import reads (kept apart from the connector: the import loads none). */
export const CA_BULK_FORMATS: readonly DatasetFormat[] = [
  {
    id: 'opendata-xml',
    country: 'CA',
    description: 'Corporations Canada federal corporations open data (OPEN_DATA_SPLIT.zip or OPEN_DATA_n.xml)',
    defaultDatasetName: 'corporations-canada-open-data',
    zipEntry: /\.xml$/i,
    read: readCaOpenData,
    expects: 'XML with <corporation> records inside <cc:corpcan><corporations>, as OPEN_DATA_n.xml writes them',
  },
];
