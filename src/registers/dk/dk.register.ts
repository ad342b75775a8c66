import type { Register } from '../register';
import { readDkVirksomhed } from './dk-virksomhed.reader';
import { DK_CHANGE_DETECTION } from './dk.change-detection';
import { DkConnector } from './dk.connector';
import { DK_DEFINITION } from './dk.definition';
import { recognizeDkIdentifier } from './dk.identifier';

/** Everything the service knows of this register: its data, connector, identifiers, bulk files and name words. */
export const DK_REGISTER: Register = {
  definition: DK_DEFINITION,
  connector: DkConnector,
  recognizeIdentifier: recognizeDkIdentifier,
  bulkFormats: [
    {
      id: 'virksomhed-jsonl',
      country: 'DK',
      description: 'CVR distribution virksomhed documents, one Elasticsearch hit per line (scroll dump)',
      defaultDatasetName: 'cvr-virksomhed',
      zipEntry: /\.(jsonl?|ndjson)$/i,
      read: readDkVirksomhed,
      expects: 'one Elasticsearch hit per line, each {"_source": {"Vrvirksomhed": {…}}}',
    },
  ],
  nameStopWords: ['aps', 'ivs', 'amba', 'fmba', 'smba'],
  changeDetection: DK_CHANGE_DETECTION,
};
