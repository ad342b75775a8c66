import type { DatasetFormat } from '../bulk/dataset-format';
import { readNoEnheter } from './no-enheter.reader';

/** The bulk files of this register the dataset import reads (kept apart from the connector: the import loads none). */
export const NO_BULK_FORMATS: readonly DatasetFormat[] = [
  {
    id: 'enheter-json',
    country: 'NO',
    description: 'Brønnøysund Enhetsregisteret /enheter/lastned: gzipped JSON array of units',
    defaultDatasetName: 'brreg-enheter',
    zipEntry: /\.json$/i,
    read: readNoEnheter,
    expects: 'a JSON array of Enhet objects: [{"organisasjonsnummer": "…", "navn": "…", …}, …]',
  },
];
