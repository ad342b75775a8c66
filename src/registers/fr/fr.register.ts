import type { Register } from '../register';
import { FR_BULK_FORMATS } from './fr.bulk-formats';
import { FR_CHANGE_DETECTION } from './fr.change-detection';
import { FrConnector } from './fr.connector';
import { FR_DEFINITION } from './fr.definition';
import { recognizeFrIdentifier } from './fr.identifier';

/** Everything the service knows of this register: its data, connector, identifiers, bulk files and name words. */
export const FR_REGISTER: Register = {
  definition: FR_DEFINITION,
  connector: FrConnector,
  recognizeIdentifier: recognizeFrIdentifier,
  bulkFormats: FR_BULK_FORMATS,
  nameStopWords: ['sas', 'sasu', 'sarl', 'eurl', 'sci', 'snc', 'scop', 'les', 'des', 'cie'],
  changeDetection: FR_CHANGE_DETECTION,
};
