import type { DatasetFormat } from '../bulk/dataset-format';
import { readDkVirksomhed } from './dk-virksomhed.reader';

/** The bulk files of this register the dataset import reads (kept apart from the connector: the import loads none). */
export const DK_BULK_FORMATS: readonly DatasetFormat[] = [
  {
    id: 'virksomhed-jsonl',
    country: 'DK',
    description: 'CVR distribution virksomhed documents, one Elasticsearch hit per line (scroll dump)',
    defaultDatasetName: 'cvr-virksomhed',
    zipEntry: /\.(jsonl?|ndjson)$/i,
    read: readDkVirksomhed,
    expects: 'one Elasticsearch hit per line, each {"_source": {"Vrvirksomhed": {…}}}',
  },
];
